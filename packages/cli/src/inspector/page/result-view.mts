import type { CallOutcome } from '../inspector-protocol.js';
import { el, isRecord, stringOf } from './dom.mjs';

const SAFE_IMAGE = /^image\/(png|jpeg|gif|webp|bmp)$/;
const SAFE_AUDIO = /^audio\/(mpeg|wav|ogg|webm|mp4)$/;

/** A text block that is a JSON object or array, indented; undefined for any other text. */
function jsonOf(text: string): string | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

/** One content block (text, image, audio, embedded resource, resource link) as page elements. */
function renderBlock(block: unknown): HTMLElement[] {
  const type = stringOf(block, 'type');
  if (type === 'text') {
    const text = stringOf(block, 'text') ?? '';
    const json = jsonOf(text);
    return json === undefined
      ? [el('pre', { class: 'text-block' }, text)]
      : [el('p', { class: 'block-label' }, 'text (JSON, indented here)'), el('pre', { class: 'text-block' }, json)];
  }
  if (type === 'image' || type === 'audio') {
    const mime = stringOf(block, 'mimeType') ?? '';
    const data = stringOf(block, 'data') ?? '';
    // Only base64 of a known media type becomes a data: URL (an SVG could carry script).
    if (!/^[A-Za-z0-9+/=\s]*$/.test(data)) return [el('p', { class: 'problem' }, `a ${type} block whose data is not base64`)];
    if (type === 'image' && SAFE_IMAGE.test(mime))
      return [el('img', { class: 'result-image', src: `data:${mime};base64,${data}`, alt: `image (${mime}) from the result` })];
    if (type === 'audio' && SAFE_AUDIO.test(mime)) return [el('audio', { controls: '', src: `data:${mime};base64,${data}` })];
    return [el('p', { class: 'muted' }, `a ${type} block of type ${mime || 'unknown'} (not shown)`)];
  }
  if (type === 'resource') {
    const resource = isRecord(block) ? block.resource : undefined;
    const text = stringOf(resource, 'text');
    return [
      el('p', { class: 'block-label' }, `resource ${stringOf(resource, 'uri') ?? ''}`),
      el('pre', {}, text ?? `(${stringOf(resource, 'mimeType') ?? 'binary'} content)`)
    ];
  }
  if (type === 'resource_link') return [el('p', {}, `link to resource `, el('code', {}, stringOf(block, 'uri') ?? ''))];
  return [el('pre', {}, JSON.stringify(block, null, 2))];
}

/**
 * Shows how a call ended in `container`: a tool's text blocks, images and structured content
 * (pretty JSON), with `isError` called out; a prompt's messages; a resource's contents; or the
 * protocol error, or the cancellation.
 */
export function renderOutcome(container: HTMLElement, kind: 'tool' | 'prompt' | 'resource', outcome: CallOutcome): void {
  container.replaceChildren();
  if (!outcome.ok) {
    const { code, message } = outcome.error;
    container.append(
      el(
        'p',
        { class: 'iserror', role: 'alert' },
        outcome.cancelled ? `Cancelled: ${message}` : `Protocol error${code !== undefined ? ` ${code}` : ''}: ${message}`
      )
    );
    return;
  }
  const result = outcome.result;
  if (kind === 'tool') {
    if (result.isError === true) container.append(el('p', { class: 'iserror', role: 'alert' }, 'isError: the tool reported an error'));
    const content = Array.isArray(result.content) ? result.content : [];
    if (content.length) container.append(el('p', { class: 'block-label' }, 'Content'));
    for (const block of content) container.append(...renderBlock(block));
    if ('structuredContent' in result)
      container.append(
        el('p', { class: 'block-label' }, 'Structured content'),
        el('pre', { 'aria-label': 'Structured content' }, JSON.stringify(result.structuredContent, null, 2))
      );
  } else if (kind === 'prompt') {
    if (typeof result.description === 'string') container.append(el('p', { class: 'muted' }, result.description));
    for (const message of Array.isArray(result.messages) ? result.messages : []) {
      container.append(el('p', { class: 'block-label' }, stringOf(message, 'role') ?? 'message'));
      container.append(...renderBlock(isRecord(message) ? message.content : undefined));
    }
  } else {
    for (const item of Array.isArray(result.contents) ? result.contents : []) {
      container.append(el('p', { class: 'block-label' }, `${stringOf(item, 'uri') ?? ''} ${stringOf(item, 'mimeType') ?? ''}`));
      const text = stringOf(item, 'text');
      container.append(el('pre', {}, text ?? `(binary, ${(stringOf(item, 'blob') ?? '').length} base64 characters)`));
    }
  }
  container.append(el('p', { class: 'muted' }, `${outcome.ms} ms`));
}
