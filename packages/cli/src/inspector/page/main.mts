/**
 * The inspector page: picks the era ("Protocol"), lists what the server offers, builds a form
 * per tool, prompt or resource template from its schema, runs calls through the backend with
 * their progress, Cancel, questions, result and view, and shows the tasks, the dev panel and the
 * JSON-RPC log. Browser code (an ES module compiled by tsc; no framework, nothing fetched but
 * the backend's own `api/*`).
 */
import type { CallOutcome, EraName, InspectorEvent, Listed, ServerSummary } from '../inspector-protocol.js';
import { Backend } from './backend.mjs';
import { DevPanel } from './dev-panel.mjs';
import { byId, el, isRecord, stringOf } from './dom.mjs';
import { LogPanel } from './log-panel.mjs';
import { QuestionPanel } from './question-panel.mjs';
import { renderOutcome } from './result-view.mjs';
import { buildSchemaFields, type SchemaFields } from './schema-form.mjs';
import { TasksPanel } from './tasks-panel.mjs';
import { ViewHost } from './view-host.mjs';

type Kind = 'tool' | 'prompt' | 'resource';

/** A member chosen on the left: what it is, and how the form turns into a call. */
interface Selected {
  readonly kind: Kind;
  readonly name: string;
  readonly item: Listed;
  /** A resource template: its URI with the form's values put in. */
  readonly template?: string;
  readonly fields: SchemaFields;
}

const backend = new Backend();
const log = new LogPanel();
const questions = new QuestionPanel(backend);
const tasks = new TasksPanel((callId) => void backend.cancel(callId));
let dev: DevPanel | undefined;
let summary: ServerSummary | undefined;
let selected: Selected | undefined;
let running: { callId: string; name: string } | undefined;
let view: ViewHost | undefined;
let nextCall = 1;

const protocol = byId<HTMLSelectElement>('protocol');
const connection = byId('connection');

function setConnection(text: string, bad = false): void {
  connection.textContent = text;
  connection.classList.toggle('bad', bad);
}

/** The `ui://` view a tool names (`_meta.ui.resourceUri`, or the older flat key). */
function viewOf(tool: Listed): string | undefined {
  const meta = isRecord(tool._meta) ? tool._meta : {};
  const uri = isRecord(meta.ui) ? meta.ui.resourceUri : meta['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/** The schema of a prompt's arguments (a list of `{ name, description, required }`) as an object schema. */
function promptSchema(prompt: Listed): Record<string, unknown> {
  const args = Array.isArray(prompt.arguments) ? prompt.arguments.filter(isRecord) : [];
  return {
    type: 'object',
    properties: Object.fromEntries(
      args.map((arg) => [
        String(arg.name),
        { type: 'string', ...(typeof arg.description === 'string' ? { description: arg.description } : {}) }
      ])
    ),
    required: args.filter((arg) => arg.required === true).map((arg) => String(arg.name))
  };
}

/** The variables of a URI template (`{id}`, `{+path}`, …) as string fields. */
function templateSchema(template: string): Record<string, unknown> {
  const names = [...template.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((match) =>
    match[1].split(',').map((name) => name.replace(/\*$/, ''))
  );
  return { type: 'object', properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])), required: names };
}

function expand(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{[+#./;?&]?([^}]+)\}/g, (_, names: string) =>
    names
      .split(',')
      .map((name) => encodeURIComponent(String(values[name.replace(/\*$/, '')] ?? '')))
      .join(',')
  );
}

function renderCatalog(): void {
  const lists: Array<[string, Kind, readonly Listed[], (item: Listed) => string]> = [
    ['tools', 'tool', summary?.tools ?? [], (item) => String(item.name)],
    ['prompts', 'prompt', summary?.prompts ?? [], (item) => String(item.name)],
    [
      'resources',
      'resource',
      [...(summary?.resources ?? []), ...(summary?.resourceTemplates ?? [])],
      (item) => String(item.name ?? item.uri ?? item.uriTemplate)
    ]
  ];
  for (const [id, kind, items, nameOf] of lists) {
    const list = byId(id);
    list.replaceChildren(
      ...items.map((item) => {
        const button = el('button', { type: 'button', title: stringOf(item, 'description') ?? stringOf(item, 'uri') ?? '' }, nameOf(item));
        button.addEventListener('click', () => {
          for (const other of document.querySelectorAll('.members button')) other.removeAttribute('aria-current');
          button.setAttribute('aria-current', 'true');
          select(kind, item, nameOf(item));
        });
        return el('li', {}, button);
      })
    );
    if (items.length === 0) list.append(el('li', { class: 'empty' }, 'none'));
  }
  byId('task-choice').hidden = !summary?.tasks;
  tasks.show(Boolean(summary?.tasks));
  byId('server-name').textContent = summary
    ? `${summary.server.title ?? summary.server.name ?? ''} ${summary.server.version ?? ''} · ${summary.protocolVersion}`
    : '';
}

function select(kind: Kind, item: Listed, name: string): void {
  byId('placeholder').hidden = true;
  byId('member').hidden = false;
  byId('member-heading').textContent = name;
  byId('member-description').textContent = stringOf(item, 'description') ?? '';
  byId('form-problem').textContent = '';
  const template = kind === 'resource' ? stringOf(item, 'uriTemplate') : undefined;
  const schema = kind === 'tool' ? item.inputSchema : kind === 'prompt' ? promptSchema(item) : template ? templateSchema(template) : {};
  const fields = buildSchemaFields(byId('member-fields'), schema);
  selected = {
    kind,
    name: kind === 'resource' ? String(item.uri ?? '') : String(item.name),
    item,
    ...(template ? { template } : {}),
    fields
  };
  byId('task-choice').hidden = !(summary?.tasks && kind === 'tool');
  if (dev)
    void backend.chain(kind, selected.name).then(
      ({ chain }) => dev?.showChain(chain),
      () => dev?.showChain(null)
    );
}

function showProgress(update: { progress: number; total?: number; message?: string }): void {
  byId('progress-box').hidden = false;
  const bar = byId('progress');
  bar.setAttribute('aria-valuenow', String(update.progress));
  const fill = byId('progress-fill');
  if (update.total !== undefined && update.total > 0) {
    bar.setAttribute('aria-valuemax', String(update.total));
    bar.classList.remove('indeterminate');
    fill.style.width = `${Math.min(100, (update.progress / update.total) * 100)}%`;
  } else {
    bar.removeAttribute('aria-valuemax');
    bar.classList.add('indeterminate');
  }
  if (update.message !== undefined) bar.setAttribute('aria-valuetext', update.message);
  byId('progress-message').textContent = update.message ?? '';
}

async function call(): Promise<void> {
  if (!selected || running) return;
  const reading = selected.fields.read();
  if (!reading.ok) {
    byId('form-problem').textContent = reading.problem;
    return;
  }
  byId('form-problem').textContent = '';
  const { kind, item } = selected;
  const name = selected.template ? expand(selected.template, reading.value) : selected.name;
  const callId = `call-${nextCall++}`;
  running = { callId, name };
  const callButton = byId<HTMLButtonElement>('call-button');
  const cancel = byId<HTMLButtonElement>('cancel-button');
  callButton.disabled = true;
  cancel.hidden = false;
  cancel.disabled = false;
  byId('call').hidden = false;
  byId('progress-box').hidden = true;
  const bar = byId('progress');
  bar.removeAttribute('aria-valuenow');
  bar.removeAttribute('aria-valuetext');
  byId('progress-fill').style.width = '0';
  byId('progress-message').textContent = '';
  byId('call-status').textContent = `Running ${name}…`;
  byId('result').hidden = true;

  view?.dispose();
  view = undefined;
  const uri = kind === 'tool' ? viewOf(item) : undefined;
  byId('view').hidden = uri === undefined;
  if (uri && summary) {
    const tools = summary.tools;
    const args = reading.value;
    view = await backend.view(uri).then(
      (document) => new ViewHost(byId('view-slot'), document, { backend, tools, toolName: name, toolInput: args }),
      (error: unknown) => {
        byId('view-slot').replaceChildren(
          el('p', { class: 'problem', role: 'alert' }, `The view ${uri} could not be read: ${String(error)}`)
        );
        return undefined;
      }
    );
  }
  const task = kind === 'tool' && Boolean(summary?.tasks) && byId<HTMLInputElement>('run-as-task').checked;
  let outcome: CallOutcome;
  try {
    outcome = await backend.call({ callId, kind, name, arguments: reading.value, task });
  } catch (error) {
    outcome = { ok: false, cancelled: false, error: { message: error instanceof Error ? error.message : String(error) }, ms: 0 };
  }
  running = undefined;
  callButton.disabled = false;
  cancel.hidden = true;
  byId('call-status').textContent = outcome.ok
    ? `${name}: done in ${outcome.ms} ms${outcome.result.isError === true ? ' (isError)' : ''}`
    : outcome.cancelled
      ? `${name}: Cancelled`
      : `${name}: failed`;
  byId('result').hidden = false;
  renderOutcome(byId('result-body'), kind, outcome);
  await view?.deliver(outcome);
}

async function connect(era: EraName): Promise<void> {
  setConnection(`connecting (${era})…`);
  protocol.disabled = true;
  try {
    summary = await backend.connect(era);
    setConnection(`connected: ${summary.protocolVersion}`);
  } catch (error) {
    summary = undefined;
    setConnection(`not connected: ${error instanceof Error ? error.message : String(error)}`, true);
  } finally {
    protocol.disabled = false;
  }
  selected = undefined;
  byId('member').hidden = true;
  byId('placeholder').hidden = false;
  renderCatalog();
}

async function refresh(): Promise<void> {
  try {
    summary = await backend.refresh();
    renderCatalog();
  } catch {
    // not connected: the status line says so already
  }
}

function onEvent(event: InspectorEvent): void {
  switch (event.type) {
    case 'progress':
      if (running?.callId === event.callId) showProgress(event);
      else if (view?.owns(event.callId)) view.progress(event.callId, event);
      break;
    case 'question':
      questions.ask(event.question);
      break;
    case 'question-closed':
      questions.closed(event.questionId);
      break;
    case 'log':
      log.add([event.entry]);
      break;
    case 'task':
      tasks.update(event.task);
      if (running?.callId === event.task.callId) byId('call-status').textContent = `${running.name}: task ${event.task.status}`;
      break;
    case 'list-changed':
      void refresh();
      break;
    case 'dev-reload':
      dev?.showReload(event.reload);
      if (event.reload.ok) void refresh();
      break;
    case 'dev-timings':
      dev?.addTimings(event.timings);
      break;
    case 'disconnected':
      setConnection(`disconnected: ${event.reason}`, true);
      break;
  }
}

async function start(): Promise<void> {
  byId('member-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void call();
  });
  byId('cancel-button').addEventListener('click', () => {
    if (!running) return;
    byId<HTMLButtonElement>('cancel-button').disabled = true;
    byId('call-status').textContent = `${running.name}: cancelling…`;
    void backend.cancel(running.callId);
  });
  protocol.addEventListener('change', () => void connect(protocol.value as EraName));
  backend.listen(onEvent, () => setConnection('the inspector stopped (reload the page when it runs again)', true));
  const state = await backend.state();
  byId('target').textContent = state.target;
  log.add(state.log);
  if (state.dev) dev = new DevPanel(true);
  for (const question of state.questions) questions.ask(question);
  if (state.summary) {
    summary = state.summary;
    protocol.value = summary.era;
    setConnection(`connected: ${summary.protocolVersion}`);
    renderCatalog();
  } else {
    await connect(protocol.value as EraName);
  }
}

void start();
