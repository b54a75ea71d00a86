import type { FusionApp } from '@mcpfusion/core';
import { modernRequest, postRaw, responseOf } from '../test/helpers/raw-http';

/**
 * Scenarios the sample's tests run on both databases (SQLite and PostgreSQL): written once, so
 * the two suites check the same thing the same way.
 */

/**
 * A throttled `reports.rebuild`, with a read (`report.generate`) and a confirmed refund of
 * `paid` started from its first progress report: resolves with the order in which the three
 * ended (`read`, `rebuild`, `refund`; `… failed` for an error result).
 */
export async function rebuildBesideReadAndRefund(app: FusionApp, paid: number): Promise<string[]> {
  const order: string[] = [];
  let read: Promise<unknown> | undefined;
  let refund: Promise<unknown> | undefined;
  await app
    .callTool(
      'reports.rebuild',
      { throttleMs: 5 },
      {
        onProgress: (_p, message) => {
          if (message !== 'month 1 of 24') return;
          read = app.callTool('report.generate', { year: 2025, quarter: 1 }).then((r) => order.push(r.isError ? 'read failed' : 'read'));
          refund = app
            .callTool('billing.refund', { id: paid }, { answers: { confirm: true } })
            .then((r) => order.push(r.isError ? 'refund failed' : 'refund'));
        }
      }
    )
    .then((r) => order.push(r.isError ? 'rebuild failed' : 'rebuild'));
  // Started from the first progress report, so only now are they both set.
  await Promise.all([read, refund]);
  return order;
}

/** One 2026-07-28 `tools/call` to an instance, raw. */
export async function callInstance(url: URL, params: Record<string, unknown>) {
  const { body, headers } = modernRequest('tools/call', params);
  return responseOf(await postRaw(url, body, headers));
}

/** Answers every request of a round with a confirmation. */
export const acceptAll = (requests: object) =>
  Object.fromEntries(Object.keys(requests).map((key) => [key, { action: 'accept', content: { confirm: true } }]));

/**
 * Two separate confirmed refunds of one invoice (two questions asked, two answers), sent at once
 * to two instances: the results of the confirming rounds.
 */
export async function refundThroughBoth(urls: readonly URL[], id: number): Promise<Array<{ isError?: boolean; content: Array<{ text: string }> }>> {
  const rounds = await Promise.all(
    urls.map(async (url) => ({
      url,
      asked: (await callInstance(url, { name: 'billing.refund', arguments: { id } })).result as { requestState: string; inputRequests: object }
    }))
  );
  const outcomes = await Promise.all(
    rounds.map(({ url, asked }) =>
      callInstance(url, { name: 'billing.refund', arguments: { id }, requestState: asked.requestState, inputResponses: acceptAll(asked.inputRequests) })
    )
  );
  return outcomes.map((o) => o.result as { isError?: boolean; content: Array<{ text: string }> });
}
