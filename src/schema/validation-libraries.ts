import type * as ClassValidator from 'class-validator';
import type { ClassTransformer, plainToInstance, TransformationType } from 'class-transformer';
import type * as JsonSchemaConverter from 'class-validator-jsonschema';
import type { defaultMetadataStorage } from 'class-transformer/cjs/storage';

/**
 * class-validator, class-transformer and class-validator-jsonschema, each loaded on first use:
 * the first input class whose schema is built, the first input validated. class-validator alone
 * loads libphonenumber-js and validator (a third of the framework's own load time), and an app
 * with no input class of its own (the gateway, `mcpfusion serve`) never needs any of them. An
 * app's input classes import class-validator themselves (their decorators), so for them it is
 * already loaded; the reference is cached here, each call after the first costs a read.
 * (Their metadata storages are global, so loading them later changes nothing they hold.)
 */
let validator: typeof ClassValidator | undefined;
let transformer: ClassTransformer | undefined;
let transformerStorage: typeof defaultMetadataStorage | undefined;
let converter: typeof JsonSchemaConverter | undefined;

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, see above */

/** The class-validator module. */
export function classValidator(): typeof ClassValidator {
  return (validator ??= require('class-validator') as typeof ClassValidator);
}

/** class-transformer's engine (`plainToInstance`), one instance, as the package's own functions use. */
export function classTransformer(): { plainToInstance: typeof plainToInstance } {
  // Its engine alone (10 modules): the package's index loads 34, its decorators and interfaces too,
  // which the framework does not use (the user's own `@Type` imports load what they need).
  return (transformer ??= new (
    require('class-transformer/cjs/ClassTransformer') as { ClassTransformer: typeof ClassTransformer }
  ).ClassTransformer());
}

/** class-transformer's `TransformationType.PLAIN_TO_CLASS`, without loading the package's index for an enum value. */
export const PLAIN_TO_CLASS = 0 as TransformationType;

/** class-transformer's metadata storage (`@Type`, `@Transform`, `@Expose`, `@Exclude`). */
export function transformerMetadata(): typeof defaultMetadataStorage {
  return (transformerStorage ??= (require('class-transformer/cjs/storage') as { defaultMetadataStorage: typeof defaultMetadataStorage })
    .defaultMetadataStorage);
}

/** The class-validator-jsonschema module (its index loads class-validator). */
export function schemaConverter(): typeof JsonSchemaConverter {
  return (converter ??= require('class-validator-jsonschema') as typeof JsonSchemaConverter);
}

/* eslint-enable @typescript-eslint/no-require-imports */
