// The entry is kept tiny: index.html shows its own loading state at once (no stylesheet or large script
// holds the first paint), and this fetches the app's code in parallel, together with the sign-in page's
// when that is where a first visit goes, rather than after the app has started.
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

const route = window.location.hash.replace(/^#/, '').split('?')[0] ?? '';
if (route === '' || route === '/' || route === '/login') void import('./features/auth/pages/login-page');

import('./app/boot')
  .then(({ boot }) => boot(root))
  .catch(() => {
    // The code could not be fetched (network gone, or a new version replaced it): say so in the loading state.
    const status = root.querySelector('.dzy-boot-text');
    if (status) status.textContent = '页面加载失败，请检查网络后刷新页面重试';
    root.querySelector('.dzy-boot-spin')?.remove();
  });
