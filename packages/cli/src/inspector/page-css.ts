/** The inspector page's styles (system fonts only: nothing is fetched). */
export const PAGE_CSS = `
:root {
  --bg: #f4f5f7; --panel: #ffffff; --text: #1f2328; --muted: #5c6470; --line: #d8dce2;
  --accent: #0f766e; --accent-text: #ffffff; --error: #b42318; --error-bg: #fdecea; --sent: #1d4ed8; --received: #047857;
  font-family: system-ui, "DejaVu Sans", sans-serif; font-size: 14px; color: var(--text); background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
h1 { font-size: 18px; margin: 0; } h1 span { color: var(--accent); }
h2 { font-size: 14px; margin: 0 0 8px; text-transform: none; }
h3 { font-size: 13px; margin: 12px 0 6px; }
.muted { color: var(--muted); }
.top { display: flex; gap: 20px; align-items: center; padding: 10px 16px; background: var(--panel); border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.top p { margin: 0; }
.top .target { flex: 1; min-width: 200px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.top label { font-weight: 600; margin-right: 6px; }
#connection { color: var(--muted); }
#connection.bad { color: var(--error); }
.layout { display: grid; grid-template-columns: 210px minmax(420px, 1fr) 340px; gap: 12px; padding: 12px; align-items: start; }
.catalog, .work > section, .side > section, dialog { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px; }
.catalog section + section { margin-top: 14px; }
.members { list-style: none; margin: 0; padding: 0; }
.members button { width: 100%; text-align: left; background: none; border: 1px solid transparent; border-radius: 6px; padding: 5px 8px; cursor: pointer; font: inherit; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; color: var(--text); }
.members button:hover { background: #eef2f6; }
.members button[aria-current="true"] { background: #e0f2f1; border-color: var(--accent); }
.members .empty { color: var(--muted); font-size: 12px; padding: 4px 8px; }
.work { display: flex; flex-direction: column; gap: 12px; min-width: 0; }
.fields { display: grid; gap: 10px; margin-bottom: 8px; }
.field label { display: block; font-weight: 600; margin-bottom: 3px; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
.field small { display: block; color: var(--muted); margin-top: 2px; }
.field input[type=text], .field input[type=number], .field input[type=email], .field input[type=url], .field input[type=date], .field select, .field textarea { width: 100%; padding: 5px 7px; border: 1px solid var(--line); border-radius: 5px; font: inherit; }
.field textarea { min-height: 60px; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
.field.check label { display: inline; }
.check { margin: 6px 0; }
button { font: inherit; padding: 5px 14px; border-radius: 6px; border: 1px solid var(--line); background: var(--panel); cursor: pointer; }
button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
button:disabled { opacity: 0.5; cursor: default; }
.problem { color: var(--error); margin: 4px 0; }
.problem:empty { display: none; }
#progress { height: 12px; background: #e6e9ee; border-radius: 6px; overflow: hidden; }
#progress-fill { height: 100%; width: 0; background: var(--accent); transition: width 0.2s; }
#progress.indeterminate #progress-fill { width: 30%; }
#progress-message { margin: 6px 0 0; color: var(--muted); }
#call p { margin: 4px 0; }
dialog { position: static; width: auto; margin: 0; border-color: var(--accent); box-shadow: 0 0 0 3px #ccebe8; }
dialog .buttons button { margin-right: 6px; }
.outcome { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 2fr); gap: 12px; align-items: start; }
.outcome > section { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px; min-width: 0; }
.outcome > section#result:only-child, .outcome > section[hidden] + section, .outcome:has(#view[hidden]) #result { grid-column: 1 / -1; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 8px; overflow: auto; max-height: 360px; margin: 6px 0; white-space: pre-wrap; word-break: break-word; }
.iserror { background: var(--error-bg); color: var(--error); border: 1px solid #f5c2bd; border-radius: 6px; padding: 6px 10px; font-weight: 600; }
.block-label { font-size: 11px; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; margin-top: 8px; }
.result-image { max-width: 100%; border: 1px solid var(--line); border-radius: 6px; }
#view-slot iframe { display: block; width: 100%; height: 200px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.side { display: flex; flex-direction: column; gap: 12px; min-width: 0; }
#log { list-style: none; margin: 0; padding: 0; max-height: 560px; overflow: auto; }
#log li { border-bottom: 1px solid #eef0f3; padding: 4px 0; }
#log li summary { cursor: pointer; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 11px; }
#log .dir { font-weight: 700; }
#log .sent .dir { color: var(--sent); }
#log .received .dir { color: var(--received); }
#log time { color: var(--muted); margin-right: 4px; }
#log pre { max-height: 200px; font-size: 11px; }
#tasks { list-style: none; padding: 0; margin: 0; }
#tasks li { border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; margin-bottom: 6px; }
#tasks .status { font-weight: 700; }
#dev-chain, #dev-timings { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; padding-left: 20px; }
#dev-reload.bad { color: var(--error); white-space: pre-wrap; }
@media (max-width: 1100px) { .layout { grid-template-columns: 200px minmax(0, 1fr); } .side { grid-column: 1 / -1; } .outcome { grid-template-columns: 1fr; } }
`;
