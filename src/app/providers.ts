import { Lifecycle, type DependencyContainer } from 'tsyringe';
import { ConfigurationError } from '../errors';
import type { ProviderSpec } from './app-options';

/** Registers one provider in the app's container. */
export function registerProvider(container: DependencyContainer, provider: ProviderSpec): void {
  if (typeof provider === 'function') {
    container.register(provider, { useClass: provider }, { lifecycle: Lifecycle.Singleton });
  } else if ('useValue' in provider) {
    container.register(provider.provide, { useValue: provider.useValue });
  } else if ('useClass' in provider) {
    container.register(
      provider.provide,
      { useClass: provider.useClass },
      { lifecycle: provider.singleton === false ? Lifecycle.Transient : Lifecycle.Singleton }
    );
  } else if ('useFactory' in provider) {
    container.register(provider.provide, { useFactory: provider.useFactory });
  } else {
    throw new ConfigurationError(
      `Unrecognized provider ${JSON.stringify(provider)}: use a class, or { provide, useValue | useClass | useFactory }.`
    );
  }
}
