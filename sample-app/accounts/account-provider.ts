/** The third-party accounts the desk can be connected to. */
export enum AccountProvider {
  GitHub = 'github',
  Google = 'google',
  Stripe = 'stripe'
}

/**
 * The provider's consent page the user is sent to. A made-up address on a reserved
 * example domain: the server never fetches it, only the user's client opens it.
 */
export function consentUrl(provider: AccountProvider): string {
  const url = new URL(`https://accounts.example.com/${provider}/consent`);
  url.searchParams.set('client_id', 'billing-desk');
  url.searchParams.set('scope', 'read');
  return url.toString();
}
