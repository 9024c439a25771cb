import { dropPeerSchema } from './peer-schema.cleanup';

describe('dropPeerSchema', () => {
  it('refuses, before connecting, any schema that is not a peer benchmark schema', async () => {
    await expect(dropPeerSchema('postgres://nobody@127.0.0.1:1/none', 'api')).rejects.toThrow('not a peer benchmark schema');
    await expect(dropPeerSchema('postgres://nobody@127.0.0.1:1/none', 'public')).rejects.toThrow('not a peer benchmark schema');
  });
});
