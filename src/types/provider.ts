/** What the `providers` option holds: types only (a leaf of the import graph). */
import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { Constructor } from './core';

/** A provider registered in the app's container. A bare class registers itself. */
export type ProviderSpec =
  | Constructor
  | {
      /** The token it is resolved by (a class, a string or a symbol). */
      provide: InjectionToken;
      /** The value every resolution returns, as given. */
      useValue: unknown;
    }
  | {
      /** The token it is resolved by (a class, a string or a symbol). */
      provide: InjectionToken;
      /** The class instantiated for the token (its own dependencies injected). */
      useClass: Constructor;
      /** One instance for the app's container. Default `true`; `false` makes a new instance on each resolution. */
      singleton?: boolean;
    }
  | {
      /** The token it is resolved by (a class, a string or a symbol). */
      provide: InjectionToken;
      /** Builds the value on each resolution, from the container resolving it. */
      useFactory: (container: DependencyContainer) => unknown;
    };
