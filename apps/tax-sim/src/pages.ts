import type { TaxpayerInfo, TodoItem } from './taxpayers.js';

/** The two pages the product embeds: the e-tax hall and the trusted-login form (docs/tax-bureau-protocol.md). */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:14px/1.6 "Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;color:#333;background:#f5f6f8}
  header{background:#f57c00;color:#fff;display:flex;align-items:center;gap:16px;padding:0 24px;height:60px}
  header h1{font-size:20px;margin:0;font-weight:600;letter-spacing:1px}header .who{margin-left:auto;font-size:13px;opacity:.95}
  .wrap{display:flex;min-height:calc(100vh - 60px)}
  nav{width:200px;background:#1f2d4d;padding:12px 0}nav a{display:block;color:#cfd6e6;padding:10px 24px;text-decoration:none}
  nav a.on,nav a:hover{background:#f57c00;color:#fff}
  main{flex:1;padding:20px 24px}
  .card{background:#fff;border-radius:4px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:16px 20px;margin-bottom:16px}
  .card h2{font-size:16px;margin:0 0 12px;border-left:4px solid #f57c00;padding-left:8px}
  table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:8px 10px;border-bottom:1px solid #eee}th{background:#fafafa;font-weight:500;color:#666}
  .grid{display:grid;grid-template-columns:repeat(3,1fr);gap:8px 24px}.grid div span{color:#888;margin-right:8px}
  .tiles{display:grid;grid-template-columns:repeat(4,1fr);gap:12px}.tiles a{display:block;text-align:center;padding:18px 0;background:#fff7ef;border:1px solid #ffd8b0;border-radius:4px;color:#c25e00;text-decoration:none;font-weight:500}
  td a{color:#c25e00}.empty{color:#999;padding:12px 0}
`;

export function hallPage(data: { info: TaxpayerInfo; todos: TodoItem[] } | null): string {
  if (!data) {
    return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>电子税务局</title><style>${STYLE}</style></head>
<body><header><h1>电子税务局（模拟）</h1></header><main><div class="card"><h2>登录已失效</h2><p>您的登录已失效，请重新登录。</p></div></main></body></html>`;
  }
  const { info, todos } = data;
  const rows = todos.length
    ? todos
        .map((t) => `<tr><td>${esc(t.title)}</td><td>${esc(t.deadline)}</td><td><a href="#">去办理</a></td></tr>`)
        .join('')
    : '<tr><td colspan="3" class="empty">暂无待办事项</td></tr>';
  const menu = ['首页', '我要办税', '我要查询', '互动中心', '公众服务'];
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(info.qymc)} ${esc(info.qysh)} - 电子税务局</title><style>${STYLE}</style></head>
<body>
<header><h1>${esc(info.swjgmc.replace(/第.税务分局$/, ''))} 电子税务局</h1><div class="who">${esc(info.qymc)}　纳税人识别号：${esc(info.qysh)}</div></header>
<div class="wrap">
<nav>${menu.map((m, i) => `<a href="#" class="${i === 0 ? 'on' : ''}">${m}</a>`).join('')}</nav>
<main>
<div class="card"><h2>纳税人信息</h2><div class="grid">
<div><span>纳税人名称</span>${esc(info.qymc)}</div><div><span>纳税人识别号</span>${esc(info.qysh)}</div><div><span>纳税人状态</span>${esc(info.nsrzt)}</div>
<div><span>法定代表人</span>${esc(info.fddbrxm)}</div><div><span>主管税务机关</span>${esc(info.swjgmc)}</div><div><span>登记日期</span>${esc(info.djrq)}</div>
</div></div>
<div class="card"><h2>我的待办</h2><table><thead><tr><th>事项</th><th>办理期限</th><th>操作</th></tr></thead><tbody>${rows}</tbody></table></div>
<div class="card"><h2>常用功能</h2><div class="tiles"><a href="#">增值税申报</a><a href="#">财务报表报送</a><a href="#">税费缴纳</a><a href="#">发票领用</a></div></div>
</main></div></body></html>`;
}

/**
 * The trusted-login form: logs in at /etax/login (with the SMS step when the taxpayer needs it) and on
 * success tells the embedding page with window.parent.postMessage('登录成功').
 */
export function trustedLoginPage(q: URLSearchParams): string {
  const v = (k: string) => esc(q.get(k) ?? '');
  const sfbm = q.get('sfbm') ?? '1';
  const options = [
    ['1', '办税员'],
    ['2', '法定代表人'],
    ['3', '财务负责人'],
    ['6', '购票员'],
    ['97', '代理办税'],
  ]
    .map(([k, label]) => `<option value="${k}"${k === sfbm ? ' selected' : ''}>${label}</option>`)
    .join('');
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>可信登录</title><style>${STYLE}
  body{background:#fff}form{max-width:420px;margin:24px auto;padding:0 16px}h2{font-size:18px;color:#c25e00;margin:0 0 16px}
  label{display:block;margin:10px 0 4px;color:#555}input,select{width:100%;height:34px;padding:4px 10px;border:1px solid #d9d9d9;border-radius:4px;font:inherit}
  .row{display:flex;gap:8px}.row input{flex:1}button{height:34px;padding:0 16px;border:0;border-radius:4px;background:#f57c00;color:#fff;font:inherit;cursor:pointer}
  button.sub{background:#fff;color:#c25e00;border:1px solid #f57c00}#submit{width:100%;margin-top:18px}#msg{margin-top:12px;min-height:22px}.err{color:#d4380d}.ok{color:#389e0d}
  </style></head><body>
<form id="f" autocomplete="off"><h2>电子税务局可信登录</h2>
<label>统一社会信用代码/纳税人识别号</label><input name="qysh" value="${v('qysh')}" required>
<label>身份</label><select name="sfbm">${options}</select>
<label>账号（居民身份证号码/手机号码/用户名）</label><input name="account" value="${v('account')}" required>
<label>密码</label><input name="password" type="password" required>
<div id="sms" hidden><label>短信验证码（发送至 <span id="phone"></span>）</label><div class="row"><input name="code" maxlength="6"><button type="button" class="sub" id="send">获取验证码</button></div></div>
<button id="submit">登录</button><div id="msg"></div></form>
<script>
const f=document.getElementById('f'),msg=document.getElementById('msg');let ticket='';
const show=(t,ok)=>{msg.textContent=t;msg.className=ok?'ok':'err'};
const post=(p,b)=>fetch(p,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(b)}).then(r=>r.json());
const clean=(s)=>String(s||'').replace(/\\[[^\\]]*\\]/g,'');
const done=()=>{show('登录成功',true);window.parent.postMessage('登录成功','*')};
document.getElementById('send').onclick=async()=>{const r=await post('/etax/sms/send',{smsTicket:ticket});show(r.code==='10000'&&r.data.code==='0'?'验证码已发送':clean(r.data?r.data.msg:r.msg),r.code==='10000')};
f.onsubmit=async(e)=>{e.preventDefault();const d=Object.fromEntries(new FormData(f));
  const r=ticket?await post('/etax/sms/login',{smsTicket:ticket,code:d.code}):await post('/etax/login',{qysh:d.qysh,account:d.account,password:d.password,sfbm:d.sfbm,loginType:'0'});
  if(r.code==='30001'||r.code==='30002'){ticket=r.data.smsTicket;document.getElementById('phone').textContent=r.data.phone;document.getElementById('sms').hidden=false;show('该纳税人需要短信验证，请获取验证码',true);return}
  if(r.code!=='10000'){show(clean(r.msg));return}
  if(r.data.code==='0'||r.data.code==='4'){done();return}
  show(r.data.code==='2'?'用户名与密码不匹配，请修改':'可信登录失败: '+clean(r.data.msg));};
</script></body></html>`;
}
