import type { PromptOptions, ResourceOptions, ResourceTemplateOptions } from '../metadata/types';
import { memberDecorator } from './member.decorator';

/**
 * Serves a resource at a fixed URI. The method returns the contents: a string (text), bytes
 * (`Uint8Array`/`Buffer`, sent as base64 `blob`), an object (JSON), or a full `ReadResourceResult`.
 *
 * @example
 * ```ts
 * @Resource('billing://summary', { name: 'summary', mimeType: 'text/plain' })
 * summary() { return 'Open invoices: 4'; }
 * ```
 */
export function Resource(uri: string, options: ResourceOptions): MethodDecorator {
  return memberDecorator('resource', '@Resource', uri, options);
}

/**
 * Serves every URI matching an RFC 6570 template (`billing://invoices/{id}`). The method's
 * `@Input()` parameter receives the variables (a class validates them like tool input).
 */
export function ResourceTemplate(uriTemplate: string, options: ResourceTemplateOptions): MethodDecorator {
  return memberDecorator('resource-template', '@ResourceTemplate', uriTemplate, options);
}

/**
 * Serves a prompt. Its arguments come from the `@Input()` class (each property a string
 * argument, validated like tool input). The method returns a string (one user text message),
 * an array of messages, or a full `GetPromptResult`.
 */
export function Prompt(name: string, options: PromptOptions): MethodDecorator {
  return memberDecorator('prompt', '@Prompt', name, options);
}
