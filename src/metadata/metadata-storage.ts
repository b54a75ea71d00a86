import type { ClassRecord, MethodRecord } from './types';

/**
 * Decorators only record what they were given here; `buildRegistry` turns the
 * records into frozen descriptors at startup and validates them. Keyed by class,
 * so nothing leaks between apps: an app reads only the classes it was given.
 */
class MetadataStorage {
  private readonly classes = new WeakMap<object, ClassRecord>();

  classRecord(ctor: object): ClassRecord {
    let record = this.classes.get(ctor);
    if (!record) {
      record = { methods: new Map(), misuses: [] };
      this.classes.set(ctor, record);
    }
    return record;
  }

  find(ctor: object): ClassRecord | undefined {
    return this.classes.get(ctor);
  }

  methodRecord(ctor: object, key: string | symbol): MethodRecord {
    const record = this.classRecord(ctor);
    let method = record.methods.get(key);
    if (!method) {
      method = { kinds: [], interactive: false, params: new Map() };
      record.methods.set(key, method);
    }
    return method;
  }
}

/** The process-wide record of decorator arguments (records only; no behaviour). */
export const metadataStorage = new MetadataStorage();
