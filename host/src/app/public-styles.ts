/**
 * The few KB of CSS of the pages drawn before antd is loaded (/login, the boot and unreachable
 * screens, the top-bar controls): antd's ConfigProvider and cssinjs are ~100 KB gzip, so /login uses
 * these instead (issue 22). The values are antd's tokens as @qc/ui-state themes them (spec §9:
 * primary blue in light mode, royal blue in dark mode); `<html data-theme>` (PageBackground) picks
 * the set, so both themes and "system" follow the one theme store.
 */
export const PUBLIC_CSS = `
:root{--qc-bg-layout:#f5f5f5;--qc-bg:#fff;--qc-text:rgba(0,0,0,.88);--qc-text-2:rgba(0,0,0,.65);
--qc-text-3:rgba(0,0,0,.6);--qc-placeholder:rgba(0,0,0,.55);--qc-border:#d9d9d9;--qc-border-2:#f0f0f0;
--qc-primary:#0958d9;--qc-primary-hover:#003eb3;--qc-link:#0958d9;--qc-link-hover:#003eb3;--qc-error:#cf1322;
--qc-fill:rgba(0,0,0,.06);--qc-focus:rgba(5,145,255,.35);
--qc-font:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',sans-serif,'Apple Color Emoji','Segoe UI Emoji','Segoe UI Symbol','Noto Color Emoji'}
:root[data-theme=dark]{--qc-bg-layout:#000;--qc-bg:#141414;--qc-text:rgba(255,255,255,.85);--qc-text-2:rgba(255,255,255,.65);
--qc-text-3:rgba(255,255,255,.55);--qc-placeholder:rgba(255,255,255,.5);--qc-border:#424242;--qc-border-2:#303030;
--qc-primary:#4169e1;--qc-primary-hover:#3a5cc2;--qc-link:#69b1ff;--qc-link-hover:#91caff;--qc-error:#ff7875;
--qc-fill:rgba(255,255,255,.12);--qc-focus:rgba(65,105,225,.5)}
body{margin:0;background:var(--qc-bg-layout);color:var(--qc-text);font-family:var(--qc-font);font-size:14px;line-height:1.5714}
.qc-public{min-height:100vh;display:flex;flex-direction:column;color:var(--qc-text)}
.qc-bar{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:12px 24px;background:var(--qc-bg);border-bottom:1px solid var(--qc-border-2)}
.qc-brand{font-weight:600;font-size:16px}
.qc-row{display:flex;align-items:center;gap:8px;flex-wrap:wrap}
.qc-center{flex:1;display:flex;align-items:center;justify-content:center;padding:24px}
.qc-card{box-sizing:border-box;width:100%;padding:32px;background:var(--qc-bg);border-radius:8px;border:1px solid var(--qc-border-2);
box-shadow:0 1px 2px 0 rgba(0,0,0,.03),0 1px 6px -1px rgba(0,0,0,.02),0 2px 4px 0 rgba(0,0,0,.02)}
.qc-h1{margin:0 0 8px;font-size:24px;line-height:1.33;font-weight:600;color:var(--qc-text)}
.qc-muted{margin:0 0 24px;color:var(--qc-text-2)}
.qc-footer{text-align:center;padding:16px;color:var(--qc-text-3);font-size:12px}
.qc-link{color:var(--qc-link);text-decoration:none}.qc-link:hover{color:var(--qc-link-hover)}
.qc-field{margin-bottom:24px}
.qc-label{display:block;padding-bottom:8px}
.qc-error{color:var(--qc-error);margin-top:2px}
.qc-input{box-sizing:border-box;display:flex;align-items:center;width:100%;min-height:32px;padding:4px 11px;gap:4px;font:inherit;color:var(--qc-text);
background:var(--qc-bg);border:1px solid var(--qc-border);border-radius:6px}
.qc-input:focus-within,input.qc-input:focus{border-color:var(--qc-primary);outline:0;box-shadow:0 0 0 2px var(--qc-focus)}
.qc-input[aria-invalid=true],.qc-input:has([aria-invalid=true]){border-color:var(--qc-error)}
.qc-input input{flex:1;min-width:0;border:0;padding:0;font:inherit;color:inherit;background:transparent;outline:0}
.qc-input::placeholder,.qc-input input::placeholder{color:var(--qc-placeholder)}
.qc-btn{box-sizing:border-box;display:inline-flex;align-items:center;justify-content:center;gap:8px;height:32px;padding:0 15px;font:inherit;
border-radius:6px;border:1px solid var(--qc-border);background:var(--qc-bg);color:var(--qc-text);cursor:pointer}
.qc-btn:hover{color:var(--qc-primary);border-color:var(--qc-primary)}
.qc-btn:focus-visible,.qc-icon-btn:focus-visible,.qc-select:focus-visible,.qc-link:focus-visible{outline:2px solid var(--qc-primary);outline-offset:1px}
.qc-btn-primary{background:var(--qc-primary);border-color:var(--qc-primary);color:#fff}
.qc-btn-primary:hover{background:var(--qc-primary-hover);border-color:var(--qc-primary-hover);color:#fff}
.qc-btn[aria-busy=true]{opacity:.75;cursor:default}
.qc-btn-link{border-color:transparent;background:transparent;color:var(--qc-link)}.qc-btn-link:hover{border-color:transparent;color:var(--qc-link-hover)}
.qc-block{width:100%}
.qc-or{display:flex;align-items:center;gap:12px;margin:16px 0;color:var(--qc-text-3)}
.qc-or::before,.qc-or::after{content:'';flex:1;border-top:1px solid var(--qc-border-2)}
.qc-icon-btn{display:inline-flex;align-items:center;justify-content:center;width:32px;height:32px;padding:0;border:0;border-radius:50%;
background:transparent;color:var(--qc-text);cursor:pointer;font-size:16px}
.qc-icon-btn:hover{background:var(--qc-fill)}
.qc-plain{border:0;background:transparent;padding:0;cursor:pointer;color:inherit;line-height:1;display:inline-flex;align-items:center;justify-content:center;
min-width:24px;min-height:24px;margin:-2px -6px -2px 0}
.qc-select{height:32px;padding:0 8px;border-radius:6px;border:1px solid var(--qc-border);background:var(--qc-bg);color:var(--qc-text);font:inherit;cursor:pointer}
.qc-spin{display:inline-block;box-sizing:border-box;width:14px;height:14px;border-radius:50%;border:2px solid currentColor;border-top-color:transparent;animation:qc-spin .8s linear infinite}
.qc-spin-lg{width:32px;height:32px;border:3px solid var(--qc-border-2);border-top-color:var(--qc-primary)}
@keyframes qc-spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.qc-spin{animation-duration:2.4s}}
`;

/** Puts PUBLIC_CSS in the page once (idempotent; called by every module that uses its classes). */
export function ensurePublicStyles(doc: Document | undefined = globalThis.document): void {
  if (!doc || doc.getElementById('qc-public-css')) return;
  const style = doc.createElement('style');
  style.id = 'qc-public-css';
  style.textContent = PUBLIC_CSS;
  doc.head.appendChild(style);
}
