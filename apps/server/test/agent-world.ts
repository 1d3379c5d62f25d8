import { PERMISSIONS, type TenantPublic } from '@dataplatform/contract';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createRole } from './authz-fixtures.js';
import { uploadCsvOk } from './extract-fixtures.js';
import { createUser, generousRateLimits, useTestContext, type TestUser } from './harness.js';
import { startScriptedModel } from './scripted-model.js';
import { createTenant, tenantHeaders } from './tenant-fixtures.js';

/** Questions and compiles one account may send a minute, here. */
export const AGENT_LIMIT = 60;

/** Who the agent's tests act as: filled in before the first test. */
export interface AgentWorld {
  tenantA: TenantPublic;
  tenantB: TenantPublic;
  /** Members holding agent:use and reports:write: one in A, one in B. */
  askerA: TestUser;
  askerB: TestUser;
  /** A member of A without agent:use. */
  plainA: TestUser;
  /** Another member of A holding what askerA holds. */
  colleagueA: TestUser;
}

const SALES = 'region,units,price,sold_on\nnorth,3,10.5,2001-01-05\nsouth,4,20,2001-02-10\nnorth,5,30,2002-03-15\n';

/**
 * An app whose agent asks a scripted model, two tenants with an extract each (`sales_a` in A,
 * `secret_b` in B), and the calls the agent's tests make.
 */
export async function useAgentWorld() {
  const model = await startScriptedModel();
  const { ctx, admin } = useTestContext({
    env: {
      AGENT_BASE_URL: model.url,
      AGENT_MODEL: 'scripted-model',
      AGENT_API_KEY: 'sk-test-secret-key-never-logged',
      AGENT_TIMEOUT_SECONDS: '1',
      AGENT_MAX_REPAIRS: '2',
      AGENT_TOKENS_PER_TENANT_PER_DAY: '100000',
    },
    config: { rateLimits: { ...generousRateLimits, agentPerAccount: { max: AGENT_LIMIT, windowMs: 60_000 } } },
  });
  const world = {} as AgentWorld;

  beforeAll(async () => {
    world.askerA = await createUser(ctx);
    world.askerB = await createUser(ctx);
    world.plainA = await createUser(ctx);
    world.colleagueA = await createUser(ctx);
    await createRole(ctx, {
      grants: [PERMISSIONS.agentUse, PERMISSIONS.reportsWrite, PERMISSIONS.sourcesWrite],
      userIds: [world.askerA.id, world.askerB.id, world.colleagueA.id],
    });
    world.tenantA = await createTenant(ctx, admin, { members: [world.askerA, world.plainA, world.colleagueA] });
    world.tenantB = await createTenant(ctx, admin, { members: [world.askerB] });
    await uploadCsvOk(ctx, world.askerA, world.tenantA.id, 'sales_a', SALES);
    await uploadCsvOk(ctx, world.askerB, world.tenantB.id, 'secret_b', 'customer,spend\nzed-corp,100\n');
  });
  afterAll(() => model.close());
  beforeEach(() => model.reset());

  return {
    ctx,
    admin,
    model,
    world,
    /** A new conversation of `user` in the tenant. */
    async conversation(user: TestUser, tenantId: string): Promise<string> {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/agent/conversations',
        headers: tenantHeaders(user, tenantId),
        payload: {},
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: string }>().id;
    },
    /** The guided builder's compile, as askerA in tenant A unless other headers are given. */
    compile(payload: object, headers: Record<string, string> = tenantHeaders(world.askerA, world.tenantA.id)) {
      return ctx.app.inject({ method: 'POST', url: '/api/v1/agent/plan/compile', headers, payload });
    },
    ask(user: TestUser, tenantId: string, conversationId: string, text: string, extra: object = {}) {
      return ctx.app.inject({
        method: 'POST',
        url: `/api/v1/agent/conversations/${conversationId}/messages`,
        headers: tenantHeaders(user, tenantId),
        payload: { text, ...extra },
      });
    },
  };
}

/** A plan the scripted model answers: units by region of `sales_a`, as a bar chart. */
export const agentPlan = (overrides: object = {}) => ({
  kind: 'plan',
  title: 'Units by region',
  source: 'extract',
  table: 'sales_a',
  measures: [{ agg: 'sum', column: 'units', as: 'units' }],
  dimensions: [{ column: 'region', grain: null }],
  filters: [],
  sort: [{ by: 'units', direction: 'desc' }],
  limit: 10,
  chart: 'bar',
  ...overrides,
});
