/**
 * The inspector page's document. Its accessible names are an interface: tests and screen
 * readers find the controls by them ("Protocol", "Call", "Cancel", "Accept", "Decline", the
 * regions "Result", "View", "Tasks", "JSON-RPC log"). Everything dynamic is built by the page's
 * modules (page/main.mts) with DOM calls and `textContent`, never by parsing server text as HTML.
 */
export function pageHtml(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcpfusion inspector</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="assets/inspector.css">
<script type="module" src="assets/main.mjs"></script>
</head>
<body>
<header class="top">
  <h1>mcpfusion <span>inspector</span></h1>
  <p class="target"><span class="muted">server</span> <code id="target"></code> <span id="server-name" class="muted"></span></p>
  <p class="era"><label for="protocol">Protocol</label>
    <select id="protocol">
      <option value="2025-11-25">2025-11-25</option>
      <option value="2026-07-28" selected>2026-07-28</option>
    </select></p>
  <p id="connection" role="status" aria-live="polite">connecting…</p>
</header>
<main class="layout">
  <nav class="catalog" aria-label="Server catalog">
    <section aria-labelledby="tools-heading"><h2 id="tools-heading">Tools</h2><ul id="tools" class="members"></ul></section>
    <section aria-labelledby="prompts-heading"><h2 id="prompts-heading">Prompts</h2><ul id="prompts" class="members"></ul></section>
    <section aria-labelledby="resources-heading"><h2 id="resources-heading">Resources</h2><ul id="resources" class="members"></ul></section>
  </nav>
  <div class="work">
    <p id="placeholder" class="muted">Choose a tool, prompt or resource on the left.</p>
    <section id="member" aria-labelledby="member-heading" hidden>
      <h2 id="member-heading"></h2>
      <p id="member-description" class="muted"></p>
      <form id="member-form" novalidate>
        <div id="member-fields" class="fields"></div>
        <p id="task-choice" class="check" hidden><input type="checkbox" id="run-as-task"> <label for="run-as-task">Run as a task</label></p>
        <p id="form-problem" class="problem" role="alert"></p>
        <p><button type="submit" id="call-button" class="primary">Call</button></p>
      </form>
    </section>
    <section id="call" aria-label="Call" hidden>
      <p id="call-status" role="status" aria-live="polite"></p>
      <div id="progress-box" hidden>
        <div id="progress" role="progressbar" aria-label="Progress" aria-valuemin="0"><div id="progress-fill"></div></div>
        <p id="progress-message"></p>
      </div>
      <p><button type="button" id="cancel-button" hidden>Cancel</button></p>
    </section>
    <dialog id="question" aria-labelledby="question-heading" aria-describedby="question-message">
      <h2 id="question-heading">The server asks</h2>
      <p id="question-message"></p>
      <p id="question-link" hidden><a id="question-url" target="_blank" rel="noopener noreferrer"></a></p>
      <form id="question-form" novalidate>
        <div id="question-fields" class="fields"></div>
        <p id="question-problem" class="problem" role="alert"></p>
        <p class="buttons"><button type="submit" class="primary">Accept</button>
          <button type="button" id="question-decline">Decline</button>
          <button type="button" id="question-cancel">Cancel</button></p>
      </form>
    </dialog>
    <div class="outcome">
      <section id="result" aria-labelledby="result-heading" hidden><h2 id="result-heading">Result</h2><div id="result-body"></div></section>
      <section id="view" aria-labelledby="view-heading" hidden><h2 id="view-heading">View</h2><div id="view-slot"></div></section>
    </div>
  </div>
  <aside class="side">
    <section id="tasks-panel" aria-labelledby="tasks-heading" hidden><h2 id="tasks-heading">Tasks</h2><ul id="tasks"></ul></section>
    <section id="dev-panel" aria-labelledby="dev-heading" hidden>
      <h2 id="dev-heading">Dev project</h2>
      <p id="dev-reload" role="status" aria-live="polite"></p>
      <h3>Compiled chain</h3><ol id="dev-chain" aria-label="Compiled chain"></ol>
      <h3>Stage timings</h3><ul id="dev-timings" aria-label="Stage timings"></ul>
    </section>
    <section id="log-panel" aria-labelledby="log-heading">
      <h2 id="log-heading">JSON-RPC log</h2>
      <ol id="log" aria-label="JSON-RPC messages"></ol>
    </section>
  </aside>
</main>
</body>
</html>
`;
}
