import type { InputRequiredResult } from '@modelcontextprotocol/server';
import { serverSdk } from '../wire/server-sdk';
import { ElicitationUnsupportedError } from '../errors';
import type { InputChannel, InputKind } from '../types/core';
import type { InputRound } from './require-input';

/** The client capability each kind of request needs. */
const NEEDED_CAPABILITY: Readonly<Record<InputKind, string>> = {
  form: 'elicitation (form)',
  url: 'elicitation.url',
  sampling: 'sampling',
  roots: 'roots'
};

/** A connection that can deliver nothing. */
export function noInputChannel(reason: string): InputChannel {
  return { form: false, url: false, sampling: false, roots: false, reason };
}

/** Throws ELICITATION_UNSUPPORTED unless the connection can deliver every request of the round. */
export function assertDeliverable(round: InputRound, channel: InputChannel | undefined): void {
  for (const request of round.requests) {
    if (!channel?.[request.kind]) {
      throw new ElicitationUnsupportedError(
        channel?.reason ??
          (channel
            ? `the client did not declare the ${NEEDED_CAPABILITY[request.kind]} capability a ${request.kind} request needs`
            : `this connection cannot deliver a ${request.kind} request`)
      );
    }
  }
}

/** The protocol's input-required result for a round, with the sealed continuation. */
export function toInputRequiredResult(round: InputRound, requestState: string): InputRequiredResult {
  const { inputRequired } = serverSdk();
  const inputRequests = Object.fromEntries(
    round.requests.map((request) => {
      const message = request.note ? `${request.note} ${request.message ?? ''}`.trim() : (request.message ?? '');
      switch (request.kind) {
        case 'form':
          return [request.key, inputRequired.elicit({ mode: 'form', message, requestedSchema: request.schema as never })];
        case 'url':
          return [request.key, inputRequired.elicitUrl({ message, url: request.url! })];
        case 'sampling':
          return [request.key, inputRequired.createMessage(request.sampling!)];
        case 'roots':
          return [request.key, inputRequired.listRoots()];
      }
    })
  );
  return inputRequired({ inputRequests, requestState });
}
