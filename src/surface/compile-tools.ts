import type { Tool } from '@modelcontextprotocol/server';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { LockKeysFunction } from '../metadata/types';
import type { ChainDependencies } from '../pipeline/chain-builder';
import type { CompiledTool } from '../pipeline/compiled-member';
import { compileMember } from '../pipeline/compile-member';
import { memberInfo } from '../pipeline/member-spec';
import { invokeStep } from '../pipeline/steps/invoke.step';
import { presentToolStep } from '../pipeline/steps/present-tool.step';
import type { Presenter, PresenterRef } from '../types/presenter';
import { EMPTY_INPUT_SCHEMA, type SchemaCatalog } from '../schema/json-schema';
import { schemaValidator } from '../schema/schema-validator';
import type { Constructor, JsonSchema } from '../types/core';
import { listedDisplay } from '../metadata/member-display';
import { toolViewMeta } from '../metadata/tool-view';

/** The listing's `_meta` key saying a tool may ask the user for input mid-call. */
export const INTERACTIVE_META_KEY = 'io.mcpfusion/interactive';

/** Compiles descriptors into servable tools: schemas, listing and chain (through the one compile path), once. */
export function compileTools(
  descriptors: readonly ToolDescriptor[],
  catalog: SchemaCatalog,
  deps: ChainDependencies,
  defaultPresenter: PresenterRef | undefined
): CompiledTool[] {
  return descriptors.map((source) => {
    const descriptor = source.presenter || !defaultPresenter ? source : Object.freeze({ ...source, presenter: defaultPresenter });
    const { schemas } = descriptor;
    const inputSchema = schemas ? schemas.input : descriptor.inputType ? catalog.schemaOf(descriptor.inputType) : EMPTY_INPUT_SCHEMA;
    const outputSchema = schemas ? schemas.output : presenterOutputSchema(descriptor.presenter, baseOutputSchema(descriptor, catalog));
    const info = memberInfo(
      descriptor.name,
      descriptor.kind,
      descriptor.interactive,
      descriptor.className,
      descriptor.methodName,
      descriptor.scopes
    );
    const member = compileMember(
      {
        kind: 'tool',
        info,
        label: `Tool ${descriptor.name}`,
        target: descriptor.target,
        singleUseState: descriptor.singleUseState,
        answersUpFront: descriptor.answersUpFront,
        exactlyOnce: descriptor.exactlyOnce,
        requires: descriptor.requires,
        task: descriptor.task,
        timeoutMs: descriptor.timeoutMs,
        mutation: descriptor.kind === 'mutation',
        lockKeys: lockKeysOf(descriptor),
        isGenerator: descriptor.isGenerator,
        middleware: descriptor.middleware,
        presenterClass: typeof descriptor.presenter === 'function' ? (descriptor.presenter as Constructor) : undefined,
        validate: schemas
          ? schemaValidator(schemas.input, `tool ${descriptor.name}`)
          : catalog.validatorOf(descriptor.inputType, `${descriptor.className}.${descriptor.methodName}`),
        present: presentToolStep(info, outputSchema, descriptor.presenter, outputName(descriptor), deps.presenterTimeoutMs),
        terminal: invokeStep('invoke-tool', descriptor.target, descriptor.methodName, descriptor.params),
        inputScopeParam: descriptor.params.includes('inputScope'),
        mountedUnder: descriptor.mountedUnder
      },
      deps
    );
    // The framework's `_meta` keys over the tool's own (its options cannot set them: refused at startup).
    const frameworkMeta = {
      ...toolViewMeta(descriptor),
      // Whether the tool may ask the user mid-call (clients such as mcpfusion say so in their listing).
      ...((descriptor.listed?.interactive ?? descriptor.interactive) ? { [INTERACTIVE_META_KEY]: true } : {})
    };
    const listing: Tool = {
      name: descriptor.name,
      ...listedDisplay(descriptor, Object.keys(frameworkMeta).length > 0 ? frameworkMeta : undefined),
      description: descriptor.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      ...(outputSchema ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}),
      annotations: descriptor.annotations,
      ...(descriptor.task
        ? { execution: { taskSupport: descriptor.task.support } }
        : descriptor.listed?.execution
          ? { execution: descriptor.listed.execution }
          : {})
    };
    return Object.freeze({
      ...member,
      kind: 'tool' as const,
      descriptor,
      listing,
      outputSchema,
      steps: member.steps as CompiledTool['steps']
    });
  });
}

/** The declared output as written in the decorator (`InvoiceView`, `[InvoiceView]`), for the messages that name it. */
function outputName(descriptor: ToolDescriptor): string | undefined {
  const { output } = descriptor;
  if (!output) return undefined;
  return Array.isArray(output) ? `[${output[0].name}]` : output.name;
}

function baseOutputSchema(descriptor: ToolDescriptor, catalog: SchemaCatalog): JsonSchema | undefined {
  const { output } = descriptor;
  if (!output) return undefined;
  if (Array.isArray(output)) {
    return { type: 'object', properties: { items: { type: 'array', items: catalog.schemaOf(output[0]) } }, required: ['items'] };
  }
  return catalog.schemaOf(output);
}

/** A presenter may describe the wrapper it adds; for a class, its prototype's `outputSchema` is called (it must not use `this`). */
function presenterOutputSchema(ref: PresenterRef | undefined, base: JsonSchema | undefined): JsonSchema | undefined {
  if (!ref) return base;
  const hook = typeof ref === 'function' ? (ref.prototype as Presenter).outputSchema : ref.outputSchema?.bind(ref);
  return hook ? hook(base) : base;
}

/** A mutation's keys as the chain takes them: none (app-wide), the tool's own key, or its key function. */
function lockKeysOf(descriptor: ToolDescriptor): LockKeysFunction | undefined {
  const on = descriptor.serializeOn;
  if (on === undefined || on === 'app') return undefined;
  if (on === 'tool') {
    const key = `tool:${descriptor.name}`;
    return () => key;
  }
  return on;
}
