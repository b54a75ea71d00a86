import { IsInt, IsString, Matches } from 'class-validator';
import { FusionApp, Input, Resource, ResourceTemplate, ToolProvider } from '../../src';
import { connectTestClient } from '../../src/testing';

class PublicUser {
  @IsInt() id!: number;
  @IsString() name!: string;
}

class UserVars {
  @Matches(/^\d+$/) id!: string;
}

const USERS = [
  { id: 1, name: 'Ada', passwordHash: 'secret-1' },
  { id: 2, name: 'Grace', passwordHash: 'secret-2' }
];

@ToolProvider()
class UserResources {
  @ResourceTemplate('users://{id}', { name: 'user', mimeType: 'application/json', output: PublicUser })
  user(@Input() vars: UserVars) {
    return USERS.find((u) => u.id === Number(vars.id));
  }

  @Resource('users://all', { name: 'users', output: [PublicUser] })
  all() {
    return USERS;
  }

  @Resource('users://raw', { name: 'raw' })
  raw() {
    return USERS[0];
  }
}

describe('resources shape their JSON with output, like tools', () => {
  it('a template and a fixed resource with output send only the declared fields; one without sends what it returns', async () => {
    const app = FusionApp.create({ tools: [UserResources] });
    const { client, close } = await connectTestClient(app);
    const text = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    expect(JSON.parse(await text('users://2'))).toEqual({ id: 2, name: 'Grace' });
    expect(JSON.parse(await text('users://all'))).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' }
    ]);
    expect(JSON.parse(await text('users://raw'))).toHaveProperty('passwordHash');
    await close();
    await app.close();
  });

  it('an output that is not a class is a startup error', () => {
    @ToolProvider()
    class Bad {
      @Resource('bad://x', { name: 'x', output: 'PublicUser' as never })
      x() {
        return {};
      }
    }
    expect(() => FusionApp.create({ tools: [Bad] })).toThrow(/Bad\.x: output must be a class or \[Class\]/);
  });
});
