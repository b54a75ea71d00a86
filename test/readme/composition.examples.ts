/*
 * The snippets of docs/composition.md, as the program they are part of (test/readme/readme.test.ts
 * checks that each block appears here verbatim; this file compiles with the tests; the behaviour
 * it shows is tested in test/integration/mount.test.ts, extensions.test.ts and skills.test.ts).
 */
import 'reflect-metadata';
import { IsInt, Min } from 'class-validator';
import { Action, FusionApp, Input, Mutation, ToolProvider, mount, skills, type FusionExtension } from '@mcpfusion/core';
import { InvalidParamsError } from '@mcpfusion/core/advanced';

class Posting {
  @IsInt() @Min(1) account!: number;
}

@ToolProvider()
export class LedgerTools {
  @Mutation('post', { description: 'Post to one account', serializeOn: (p: Posting) => `account:${p.account}` })
  post(@Input() posting: Posting) {
    return `posted to ${posting.account}`;
  }

  @Action('balance', { description: 'The balance' })
  balance() {
    return { cents: 1200 };
  }
}

@ToolProvider()
export class ReportTools {
  @Action('report.summary', { description: 'A one-line summary' })
  summary() {
    return 'All books balanced.';
  }
}

const ledger = FusionApp.create({ tools: [LedgerTools] });

export const app = FusionApp.create({
  tools: [ReportTools],
  mounts: [mount('ledger', ledger)]
});
// tools/list: report.summary, ledger.post, ledger.balance

export const classesOnly = FusionApp.create({
  tools: [ReportTools],
  mounts: [mount('books', { tools: [LedgerTools], middleware: [] })]
});

/** A small extension: one method, its settings advertised, the client's opt-in read per request. */
export const clock: FusionExtension = {
  id: 'com.example/clock',
  settings: { zones: ['utc', 'local'] },
  methods: {
    'clock/now': ({ params, clientSettings }) => {
      if (params.zone !== undefined && params.zone !== 'utc' && params.zone !== 'local') {
        throw new InvalidParamsError('clock/now: zone must be "utc" or "local"');
      }
      // What the client declared under capabilities.extensions["com.example/clock"], this request.
      const zone = params.zone ?? clientSettings?.zone ?? 'utc';
      return { now: new Date(0).toISOString(), zone };
    }
  },
  steps: {
    // Around every tool, prompt and resource call, before the app's own middleware.
    outer: [async (ctx, next) => (ctx.log.debug(`clock: ${ctx.tool.name}`), next())]
  }
};

export const withClock = FusionApp.create({ tools: [ReportTools], extensions: [clock] });

export const withSkills = FusionApp.create({
  tools: [ReportTools],
  extensions: [skills({ folder: './skills' })]
});
