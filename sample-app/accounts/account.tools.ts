import { Action, Input, Interactive, readInput, requireInput, ToolProvider, type InputRound } from '@mcpfusion/core';
import { consentUrl } from './account-provider';
import { ConnectRequest } from './account.inputs';
import { ConnectedAccountRepository } from './connected-account-repository';
import { Scopes } from '../scopes';

/** The name the consent visit is answered under (its key) (`readInput('consent')`). */
const CONSENT = 'consent';

/** Third-party accounts: connect one through the provider's consent page. */
@ToolProvider()
export class AccountTools {
  constructor(private readonly accounts: ConnectedAccountRepository) {}

  /**
   * Sends the user to the provider's consent page (a URL request: the client opens it, the
   * server never does) and records the connection once the client reports the visit accepted.
   * It returns a sentence, so it declares no output class.
   */
  @Interactive()
  @Action('account.connect', {
    scopes: [Scopes.AccountsConnect],
    title: 'Connect an account',
    description:
      'Connect the desk to a github, google or stripe account. The user approves access on the provider consent page; nothing is connected unless they do.',
    // It records the connection, so it is not read-only; connecting twice changes nothing more, and nothing is destroyed.
    annotations: { readOnlyHint: false, idempotentHint: true },
    // Connecting an account is a conversation with the user, not a button in a view: hosts refuse a view's call to it.
    visibility: ['model']
  })
  async connect(@Input() request: ConnectRequest): Promise<string | InputRound> {
    const { provider } = request;
    if (readInput(CONSENT) !== true) {
      return requireInput.url(`Connect your ${provider} account`, consentUrl(provider), {
        key: CONSENT,
        onDecline: `Your ${provider} account was not connected.`
      });
    }
    const account = await this.accounts.connect(provider, new Date());
    return `Your ${provider} account is connected (since ${account.connectedAt}).`;
  }
}
