let started = false;

/**
 * Starts fetching what signing in leads to (antd's root and the shell) once a visitor starts filling in the
 * sign-in form: the sign-in page itself loads none of it, and by the time 登 录 is clicked it is on its way.
 * The same modules the router loads lazily, so nothing is fetched twice.
 */
export function preloadSignedIn(): void {
  if (started) return;
  started = true;
  const ignore = () => undefined; // A failure shows when the route itself loads them (RouteError).
  import('./antd-root').catch(ignore);
  import('./layout/main-layout').catch(ignore);
}
