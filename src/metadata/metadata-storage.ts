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

  /**
   * The records of a class and of each class it extends, the root first and `ctor` last
   * (classes without decorators have none and are skipped). Decorators record on the class
   * that declares the method, so inheritance is read here, never copied at decoration time.
   */
  lineage(ctor: object): Array<{ readonly ctor: object; readonly record: ClassRecord }> {
    const chain: Array<{ ctor: object; record: ClassRecord }> = [];
    for (let at: object | null = ctor; at && at !== Function.prototype; at = Object.getPrototypeOf(at) as object | null) {
      const record = this.classes.get(at);
      if (record) chain.unshift({ ctor: at, record });
    }
    return chain;
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
