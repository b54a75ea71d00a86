import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import { Action, CALL_AUTH, FusionApp, ToolProvider, type Presenter } from '../../../src';
import { duplicateCopies } from '../../../src/di/injection-check';

class Repository {
  find(): string {
    return 'found';
  }
}

interface Clock {
  now(): number;
}

describe('dependency injection is checked at startup', () => {
  it('a class without decorator metadata (what esbuild and tsx build) fails FusionApp.create, naming the class and the fix', () => {
    class Built {
      constructor(readonly repo: Repository) {}
      @Action('built.find', { description: 'x' })
      find() {
        return this.repo.find();
      }
    }
    ToolProvider()(Built); // applied by hand: TypeScript emits no constructor metadata for an undecorated class
    expect(() => FusionApp.create({ tools: [Built] })).toThrow(
      /Built takes 1 constructor parameter\(s\) but no decorator metadata was emitted[\s\S]*emitDecoratorMetadata[\s\S]*esbuild/
    );
  });

  it('an interface-typed parameter without @inject, an unregistered token, and an undecorated dependency are each reported', () => {
    class Undecorated {
      constructor(readonly repo: Repository) {}
    }
    @ToolProvider()
    class Tools {
      constructor(
        readonly clock: Clock,
        @inject('db') readonly db: unknown,
        readonly dep: Undecorated
      ) {}
      @Action('tools.now', { description: 'x' })
      now() {
        return String(this.clock.now());
      }
    }
    let message = '';
    try {
      FusionApp.create({ tools: [Tools] });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('3 problem(s) with dependency injection');
    expect(message).toContain('parameter #1 of Tools has no injection token: its type is an interface, a union or a primitive (Object)');
    expect(message).toContain('parameter #2 of Tools injects db, which is not registered');
    expect(message).toContain('Undecorated (needed by Tools) takes constructor parameters but is not injectable');
  });

  it('presenter and middleware classes are checked too; registered tokens, per-call tokens and injectable classes pass', () => {
    @injectable()
    class NeedsClock implements Presenter {
      constructor(@inject('clock') readonly clock: Clock) {}
      present(value: unknown) {
        return { content: [{ type: 'text' as const, text: String(value) }] };
      }
    }
    @ToolProvider({ presenter: NeedsClock })
    class Fine {
      constructor(readonly repo: Repository) {}
      @Action('fine.find', { description: 'x' })
      find() {
        return this.repo.find();
      }
    }
    expect(() => FusionApp.create({ tools: [Fine] })).toThrow(/parameter #1 of NeedsClock injects clock, which is not registered/);
    injectable()(Repository);
    const app = FusionApp.create({ tools: [Fine], providers: [{ provide: 'clock', useValue: { now: () => 1 } }] });
    void app.close();
  });

  it('a singleton provider that injects a per-call token fails at create (it would fail on every call), and passes once it is per call', () => {
    @injectable()
    class Audit {
      constructor(@inject(CALL_AUTH) readonly auth: unknown) {}
    }
    @ToolProvider()
    class Audited {
      constructor(readonly audit: Audit) {}
      @Action('audited', { description: 'x' })
      run() {
        return 'ok';
      }
    }
    expect(() => FusionApp.create({ tools: [Audited], providers: [Audit] })).toThrow(
      /Audit \(needed by Audited\) is a singleton provider but injects CALL_AUTH, which exists only during a call: register it as \{ provide: Audit, useClass: Audit, singleton: false \}/
    );
    expect(() => FusionApp.create({ tools: [Audited], providers: [{ provide: Audit, useClass: Audit, singleton: false }] })).not.toThrow();
    expect(() => FusionApp.create({ tools: [Audited] })).not.toThrow();
  });

  it('one copy of each shared package here; a project with its own tsyringe is told so', () => {
    expect(duplicateCopies()).toEqual([]);
    const project = mkdtempSync(join(tmpdir(), 'second-copy-'));
    try {
      cpSync(dirname(require.resolve('tsyringe/package.json')), join(project, 'node_modules', 'tsyringe'), { recursive: true });
      const lines = duplicateCopies(project);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Two copies of tsyringe: the framework uses .*, your project .*second-copy-.*npm ls tsyringe/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("an app with the project's classes started in a folder with its own reflect-metadata is refused (an app of gateways alone is not: see sample-app/serve-any-folder.test.ts)", () => {
    @ToolProvider()
    class ProjectTools {
      @Action('project.ping', { description: 'x' })
      ping() {
        return 'pong';
      }
    }
    const project = mkdtempSync(join(tmpdir(), 'second-reflect-'));
    const here = process.cwd();
    try {
      cpSync(dirname(require.resolve('reflect-metadata')), join(project, 'node_modules', 'reflect-metadata'), { recursive: true });
      process.chdir(project);
      expect(() => FusionApp.create({ tools: [ProjectTools] })).toThrow(/Two copies of reflect-metadata/);
      // Nothing of the project runs: the folder is not looked at.
      expect(() => FusionApp.create({ tools: [] })).not.toThrow();
    } finally {
      process.chdir(here);
      rmSync(project, { recursive: true, force: true });
    }
  });
});
