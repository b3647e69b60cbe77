import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invites, members, passkeys, products, sessions, workspaces } from '../src/db/schema';
import { randomToken, sha256 } from '../src/lib/crypto';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { SoftAuthenticator } from './support/soft-authenticator';

let t: TestApp;
let clock = Date.now();
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(clock) });
});
afterAll(async () => {
  await t.close();
});

/** inject's default Host is localhost:80, so the page's origin is http://localhost (no APP_URL: localhost only). */
const ORIGIN = 'http://localhost';

const workspaceCount = async () => Number((await t.deps.db.select({ n: count() }).from(workspaces))[0]?.n ?? 0);

async function addPasskey(client: TestClient, name = 'Laptop') {
  const authenticator = new SoftAuthenticator(ORIGIN);
  const options = await client.post('/api/auth/passkeys/registration-options', {});
  expect(options.statusCode).toBe(200);
  const response = authenticator.register(options.json());
  const verified = await client.post('/api/auth/passkeys/registration-verify', { name, response });
  expect(verified.statusCode).toBe(201);
  return { authenticator, passkey: verified.json() as { id: string; name: string } };
}

async function signInWith(client: TestClient, authenticator: SoftAuthenticator) {
  const options = await client.post('/api/auth/passkeys/login-options', {});
  expect(options.statusCode).toBe(200);
  return client.post('/api/auth/passkeys/login', { response: authenticator.authenticate(options.json()) });
}

/** A workspace with an owner, and a member of the given role who joined through an invite. */
async function teamWith(role: 'editor' | 'viewer' | 'owner') {
  const owner = t.client();
  const created = await owner.post('/api/workspace/invites', { role });
  expect(created.statusCode).toBe(201);
  const token = (created.json() as { url: string }).url.split('/invite/')[1] ?? '';
  const member = t.client();
  const accepted = await member.post(`/api/workspace/invites/${token}/accept`, { name: `A ${role}` });
  expect(accepted.statusCode).toBe(201);
  return { owner, member, token };
}

describe('sessions', () => {
  it('a first visit starts working at once as the owner of a new workspace', async () => {
    const client = t.client();
    const me = await client.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ role: 'owner', passkeys: 0, name: null });
    expect(client.known).toBe('pf_known=1');
    const list = (await client.get('/api/auth/sessions')).json() as { current: boolean }[];
    expect(list).toHaveLength(1);
    expect(list[0]?.current).toBe(true);
  });

  it('a cookie from before accounts keeps its workspace: it becomes an owner member and a session', async () => {
    const token = randomToken(16);
    const [workspace] = await t.deps.db
      .insert(workspaces)
      .values({ tokenHash: sha256(token) })
      .returning();
    if (!workspace) throw new Error('no workspace');
    await t.deps.db.insert(products).values({ workspaceId: workspace.id, title: 'Old tee', productType: 'tshirt' });
    const client = t.client();
    client.cookie = `pf_session=${encodeURIComponent(t.app.signCookie(token))}`;
    const first = await client.get('/api/dashboard/recent-uploads');
    expect(first.statusCode).toBe(200);
    expect((first.json() as { title: string }[]).map((p) => p.title)).toEqual(['Old tee']);
    expect(first.cookies.find((c) => c.name === 'pf_session')).toBeUndefined();
    expect((await client.get('/api/auth/me')).json()).toMatchObject({ role: 'owner', workspaceId: workspace.id });
    const [row] = await t.deps.db.select().from(workspaces).where(eq(workspaces.id, workspace.id));
    expect(row?.tokenHash).toBeNull();
    const memberRows = await t.deps.db.select().from(members).where(eq(members.workspaceId, workspace.id));
    expect(memberRows).toHaveLength(1);
  });

  it('a signed-out browser is not given a new workspace: it gets NO_SESSION until it signs in or starts one', async () => {
    const client = t.client();
    const { authenticator } = await addPasskey(client);
    const session = await client.session(t.deps.db);
    const out = await client.delete(`/api/auth/sessions/${session.id}`);
    expect(out.statusCode).toBe(204);
    expect(client.cookie).toBeNull();
    const before = await workspaceCount();
    const api = await client.get('/api/dashboard/stats');
    expect(api.statusCode).toBe(401);
    expect(api.json().code).toBe('NO_SESSION');
    const page = await client.get('/');
    expect(page.cookies.find((c) => c.name === 'pf_session')).toBeUndefined();
    expect(await workspaceCount()).toBe(before);
    // Back in with the passkey: the same workspace.
    const back = await signInWith(client, authenticator);
    expect(back.statusCode).toBe(200);
    expect(back.json().workspaceId).toBe(session.workspaceId);
  });

  it('a revoked session cookie (signed, but no longer known) is a lost session too, and may start a new workspace', async () => {
    const owner = t.client();
    await addPasskey(owner);
    const other = t.client();
    const { authenticator } = await addPasskey(other);
    // The same person signs in on a second browser, then signs it out from the first.
    const second = t.client();
    expect((await signInWith(second, authenticator)).statusCode).toBe(200);
    const secondSession = await second.session(t.deps.db);
    expect((await other.delete(`/api/auth/sessions/${secondSession.id}`)).statusCode).toBe(204);
    second.known = null;
    const lost = await second.get('/api/products');
    expect(lost.statusCode).toBe(401);
    expect(lost.json().code).toBe('NO_SESSION');
    const fresh = await second.post('/api/auth/new-workspace', {});
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json().workspaceId).not.toBe(secondSession.workspaceId);
    expect((await second.post('/api/auth/new-workspace', {})).statusCode).toBe(409);
  });

  it("signing out the workspace's last way in (no other browser, no passkey) needs force", async () => {
    const client = t.client();
    const session = await client.session(t.deps.db);
    const refused = await client.delete(`/api/auth/sessions/${session.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/unreachable/);
    expect((await client.delete(`/api/auth/sessions/${session.id}?force=true`)).statusCode).toBe(204);
    expect((await client.get('/api/products')).statusCode).toBe(401);
  });

  it("a member cannot see or sign out another member's sessions", async () => {
    const { owner, member } = await teamWith('editor');
    const ownerSession = await owner.session(t.deps.db);
    const list = (await member.get('/api/auth/sessions')).json() as { id: string }[];
    expect(list.map((s) => s.id)).not.toContain(ownerSession.id);
    expect((await member.delete(`/api/auth/sessions/${ownerSession.id}?force=true`)).statusCode).toBe(404);
    expect((await owner.get('/api/products')).statusCode).toBe(200);
  });
});

describe('passkeys', () => {
  it('adds named passkeys, lists, renames and removes them', async () => {
    const client = t.client();
    const first = await addPasskey(client, 'Laptop');
    await addPasskey(client, 'Phone');
    const list = (await client.get('/api/auth/passkeys')).json() as { name: string }[];
    expect(list.map((p) => p.name)).toEqual(['Laptop', 'Phone']);
    expect((await client.get('/api/auth/me')).json().passkeys).toBe(2);
    const renamed = await client.patch(`/api/auth/passkeys/${first.passkey.id}`, { name: 'Work laptop' });
    expect(renamed.json().name).toBe('Work laptop');
    expect((await client.patch(`/api/auth/passkeys/${first.passkey.id}`, { name: ' ' })).statusCode).toBe(400);
    expect((await client.delete(`/api/auth/passkeys/${first.passkey.id}`)).statusCode).toBe(204);
    expect(((await client.get('/api/auth/passkeys')).json() as unknown[]).length).toBe(1);
    // The removed passkey no longer signs anyone in.
    const refused = await signInWith(t.client(), first.authenticator);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toMatch(/not known here/);
  });

  it('signs a fresh browser in to the same workspace, without making a workspace for it', async () => {
    const seller = t.client();
    const workspaceId = await seller.workspaceId(t.deps.db);
    await t.deps.db.insert(products).values({ workspaceId, title: 'Passkey mug', productType: 'mug' });
    const { authenticator } = await addPasskey(seller);
    const before = await workspaceCount();
    const fresh = t.client();
    const signedIn = await signInWith(fresh, authenticator);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ workspaceId, role: 'owner' });
    expect(await workspaceCount()).toBe(before);
    const recent = (await fresh.get('/api/dashboard/recent-uploads')).json() as { title: string }[];
    expect(recent.map((r) => r.title)).toEqual(['Passkey mug']);
    // Both browsers are listed for the member.
    expect(((await seller.get('/api/auth/sessions')).json() as unknown[]).length).toBe(2);
  });

  it('signing in from a browser that had a workspace leaves that one', async () => {
    const seller = t.client();
    const { authenticator } = await addPasskey(seller);
    const other = t.client();
    const otherSession = await other.session(t.deps.db);
    expect((await signInWith(other, authenticator)).statusCode).toBe(200);
    const gone = await t.deps.db.select().from(sessions).where(eq(sessions.id, otherSession.id));
    expect(gone).toHaveLength(0);
  });

  it('a challenge works once, expires, and only for the page origin', async () => {
    const client = t.client();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = (await client.post('/api/auth/passkeys/registration-options', {})).json();
    const wrongOrigin = await client.post('/api/auth/passkeys/registration-verify', {
      name: 'Evil',
      response: authenticator.register(options, { origin: 'https://evil.example' }),
    });
    expect(wrongOrigin.statusCode).toBe(400);
    // That attempt used the challenge up.
    const again = await client.post('/api/auth/passkeys/registration-verify', {
      name: 'Laptop',
      response: authenticator.register(options),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatch(/expired or was already used/);

    const { authenticator: key } = await addPasskey(client);
    const login = (await t.client().post('/api/auth/passkeys/login-options', {})).json();
    const answer = key.authenticate(login);
    expect((await t.client().post('/api/auth/passkeys/login', { response: answer })).statusCode).toBe(200);
    const replay = await t.client().post('/api/auth/passkeys/login', { response: answer });
    expect(replay.statusCode).toBe(400);

    const late = (await t.client().post('/api/auth/passkeys/login-options', {})).json();
    clock += 6 * 60 * 1000;
    const expired = await t.client().post('/api/auth/passkeys/login', { response: key.authenticate(late) });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toMatch(/expired/);
  });

  it("refuses a registration answered for another browser's challenge", async () => {
    const a = t.client();
    const b = t.client();
    const options = (await a.post('/api/auth/passkeys/registration-options', {})).json();
    const response = new SoftAuthenticator(ORIGIN).register(options);
    expect((await b.post('/api/auth/passkeys/registration-verify', { name: 'X', response })).statusCode).toBe(400);
  });

  it('refuses a cloned authenticator whose counter went back', async () => {
    const client = t.client();
    const { authenticator } = await addPasskey(client);
    expect((await signInWith(t.client(), authenticator)).statusCode).toBe(200);
    expect((await signInWith(t.client(), authenticator)).statusCode).toBe(200);
    const options = (await t.client().post('/api/auth/passkeys/login-options', {})).json();
    const cloned = await t
      .client()
      .post('/api/auth/passkeys/login', { response: authenticator.authenticate(options, { counter: 1 }) });
    expect(cloned.statusCode).toBe(401);
  });

  it('off localhost without APP_URL, passkeys answer 501 naming the setting', async () => {
    const response = await t.client().post('/api/auth/passkeys/login-options', {}, { host: 'shop.example.com' });
    expect(response.statusCode).toBe(501);
    expect(response.json().error).toMatch(/APP_URL/);
  });
});

describe('invites and members', () => {
  it('an invite joins another browser with its role; the link works once; only its hash is stored', async () => {
    const owner = t.client();
    const workspaceId = await owner.workspaceId(t.deps.db);
    const created = await owner.post('/api/workspace/invites', { role: 'editor' });
    expect(created.statusCode).toBe(201);
    const invite = created.json() as { id: string; url: string; role: string; expiresAt: string };
    expect(invite.url).toMatch(/^http:\/\/localhost(:80)?\/invite\/[A-Za-z0-9_-]{32}$/);
    expect(new Date(invite.expiresAt).getTime() - clock).toBeCloseTo(7 * 24 * 3600 * 1000, -4);
    const token = invite.url.split('/invite/')[1] ?? '';
    const [row] = await t.deps.db.select().from(invites).where(eq(invites.id, invite.id));
    expect(row?.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const guest = t.client();
    const before = await workspaceCount();
    const info = await guest.get(`/api/workspace/invites/${token}`);
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ role: 'editor', alreadyMember: false, leaves: null });
    const accepted = await guest.post(`/api/workspace/invites/${token}/accept`, { name: 'Sam' });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json()).toMatchObject({ workspaceId, role: 'editor', name: 'Sam' });
    expect(await workspaceCount()).toBe(before);

    const again = await t.client().post(`/api/workspace/invites/${token}/accept`, {});
    expect(again.statusCode).toBe(410);
    expect(again.json().error).toMatch(/already used/);

    const list = (await owner.get('/api/workspace/members')).json() as { role: string; you: boolean; name: string }[];
    expect(list.map((m) => [m.role, m.you, m.name])).toEqual([
      ['owner', true, null],
      ['editor', false, 'Sam'],
    ]);
    expect((await owner.get('/api/workspace/invites')).json()).toEqual([]);
  });

  it('opening an invite page in a new browser makes no workspace for it', async () => {
    const before = await workspaceCount();
    const page = await t.client().get(`/invite/${randomToken(24)}`);
    expect(page.cookies.find((c) => c.name === 'pf_session')).toBeUndefined();
    expect(await workspaceCount()).toBe(before);
  });

  it('a revoked or expired invite cannot be accepted, and an unknown one is 404', async () => {
    const owner = t.client();
    const revoked = (await owner.post('/api/workspace/invites', { role: 'viewer' })).json() as {
      id: string;
      url: string;
    };
    expect(((await owner.get('/api/workspace/invites')).json() as unknown[]).length).toBe(1);
    expect((await owner.delete(`/api/workspace/invites/${revoked.id}`)).statusCode).toBe(204);
    const token = revoked.url.split('/invite/')[1];
    const refused = await t.client().post(`/api/workspace/invites/${token}/accept`, {});
    expect(refused.statusCode).toBe(410);
    expect(refused.json().error).toMatch(/revoked/);

    const short = (await owner.post('/api/workspace/invites', { role: 'viewer', expiresInDays: 1 })).json() as {
      url: string;
    };
    clock += 25 * 3600 * 1000;
    const expired = await t.client().get(`/api/workspace/invites/${short.url.split('/invite/')[1]}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toMatch(/expired/);
    expect((await t.client().get(`/api/workspace/invites/${randomToken(24)}`)).statusCode).toBe(404);
    expect((await owner.post('/api/workspace/invites', { role: 'admin' })).statusCode).toBe(400);
    expect((await owner.post('/api/workspace/invites', { role: 'viewer', expiresInDays: 31 })).statusCode).toBe(400);
  });

  it('the owner removes a member, whose browsers are signed out at once', async () => {
    const { owner, member } = await teamWith('editor');
    const memberId = (await member.get('/api/auth/me')).json().memberId as string;
    expect((await owner.delete(`/api/workspace/members/${memberId}`)).statusCode).toBe(204);
    const after = await member.get('/api/products');
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('NO_SESSION');
    const ownerId = (await owner.get('/api/auth/me')).json().memberId as string;
    expect((await owner.delete(`/api/workspace/members/${ownerId}`)).statusCode).toBe(409);
  });

  it('accepting an invite while signed in elsewhere says what it leaves', async () => {
    const owner = t.client();
    const token = ((await owner.post('/api/workspace/invites', { role: 'viewer' })).json().url as string).split(
      '/invite/',
    )[1];
    const other = t.client();
    await other.get('/api/auth/me');
    expect((await other.get(`/api/workspace/invites/${token}`)).json().leaves).toEqual({ hasPasskey: false });
    expect((await owner.get(`/api/workspace/invites/${token}`)).json().alreadyMember).toBe(true);
    expect((await owner.post(`/api/workspace/invites/${token}/accept`, {})).statusCode).toBe(409);
  });
});

describe('roles, checked for every call', () => {
  const fill = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');

  it('a viewer gets 403 on every call that changes anything, and may read', async () => {
    const { member: viewer } = await teamWith('viewer');
    const mutating = t.app.routeRoles.filter(
      (r) => r.minRole !== 'viewer' && !r.url.startsWith('/api/webhooks/') && r.method !== 'HEAD',
    );
    expect(mutating.length).toBeGreaterThan(40);
    for (const route of mutating) {
      const response = await viewer.request({
        method: route.method as 'POST',
        url: fill(route.url),
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      expect([route.method, route.url, response.statusCode]).toEqual([route.method, route.url, 403]);
    }
    expect((await viewer.get('/api/products')).statusCode).toBe(200);
    expect((await viewer.get('/api/workspace/members')).statusCode).toBe(200);
    expect((await viewer.patch('/api/settings', { targetMargin: 30 })).json().code).toBe('FORBIDDEN');
    // Their own account is theirs to manage.
    await addPasskey(viewer);
  });

  it('an editor changes things but does not manage members or invites; an invited owner does', async () => {
    const { member: editor } = await teamWith('editor');
    expect((await editor.patch('/api/settings', { targetMargin: 33 })).statusCode).toBe(200);
    const invite = await editor.post('/api/workspace/invites', { role: 'viewer' });
    expect(invite.statusCode).toBe(403);
    expect(invite.json().error).toMatch(/owners/);
    expect((await editor.get('/api/workspace/invites')).statusCode).toBe(403);
    const ownerId = (await editor.get('/api/workspace/members')).json()[0].id as string;
    expect((await editor.delete(`/api/workspace/members/${ownerId}`)).statusCode).toBe(403);
    const { member: secondOwner } = await teamWith('owner');
    expect((await secondOwner.post('/api/workspace/invites', { role: 'viewer' })).statusCode).toBe(201);
  });

  it("members never reach another workspace's rows, members, invites, passkeys or sessions", async () => {
    const a = await teamWith('viewer');
    const b = await teamWith('editor');
    const bWorkspace = await b.owner.workspaceId(t.deps.db);
    await t.deps.db.insert(products).values({ workspaceId: bWorkspace, title: 'B only', productType: 'mug' });
    const [bProduct] = await t.deps.db.select().from(products).where(eq(products.workspaceId, bWorkspace));
    expect((await a.member.get(`/api/products/${bProduct?.id}`)).statusCode).toBe(404);
    expect((await a.owner.get(`/api/products/${bProduct?.id}`)).statusCode).toBe(404);
    const bMembers = (await b.owner.get('/api/workspace/members')).json() as { id: string }[];
    const aMembers = (await a.owner.get('/api/workspace/members')).json() as { id: string }[];
    expect(aMembers.map((m) => m.id)).not.toContain(bMembers[1]?.id);
    expect((await a.owner.delete(`/api/workspace/members/${bMembers[1]?.id}`)).statusCode).toBe(404);
    const bInvite = (await b.owner.post('/api/workspace/invites', { role: 'viewer' })).json() as { id: string };
    expect((await a.owner.delete(`/api/workspace/invites/${bInvite.id}`)).statusCode).toBe(404);
    const { passkey } = await addPasskey(b.member);
    expect((await a.owner.delete(`/api/auth/passkeys/${passkey.id}`)).statusCode).toBe(404);
    expect((await b.owner.delete(`/api/auth/passkeys/${passkey.id}`)).statusCode).toBe(404);
    const [stillThere] = await t.deps.db.select().from(passkeys).where(eq(passkeys.id, passkey.id));
    expect(stillThere).toBeDefined();
    const bSession = await b.member.session(t.deps.db);
    expect((await a.owner.delete(`/api/auth/sessions/${bSession.id}?force=true`)).statusCode).toBe(404);
  });
});

describe('session-less calls', () => {
  it('are limited per client address', async () => {
    let refused: { statusCode: number; json(): { error: string; code: string } } | null = null;
    for (let i = 0; i < 61 && !refused; i++) {
      const response = await t.client().post('/api/auth/passkeys/login-options', {});
      if (response.statusCode === 429) refused = response;
      else expect(response.statusCode).toBe(200);
    }
    expect(refused?.json()).toMatchObject({
      code: 'RATE_LIMITED',
      error: expect.stringMatching(/at most 60 a minute/),
    });
  });
});
