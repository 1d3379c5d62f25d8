import { USER_IDS_MAX } from '@dataplatform/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordRequests, server, urlsOf } from '../../../test/api-server.js';
import { renderInApp, storeSignedInUser } from '../../../test/render-in-app.js';
import { resetSignedInState } from '../../../test/signed-in.js';
import { TenantMembersDialog } from './tenant-members-dialog.js';

const tenant = {
  id: '00000000-0000-4000-8000-00000000000a',
  name: 'Acme',
  description: null,
  status: 'active',
  dburl: 'postgresql://app:****@db.example.com:5432/app',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
} as const;

function user(index: number) {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    email: `member-${index}@example.com`,
    full_name: null,
    is_active: true,
    is_superuser: false,
    email_verified: true,
    created_at: '2026-11-01T10:00:00.000Z',
  };
}

/**
 * The API of the dialog: `memberCount` members (the last one deleted since, so `?ids=` leaves it
 * out), a search that finds users 900 and 901; records every URL.
 */
function serveMembers(memberCount: number) {
  const members = Array.from({ length: memberCount }, (_, index) => user(index + 1));
  const everyone = [...members, user(900), user(901)];
  server.use(
    http.get('*/api/v1/tenants/:id/members', () => HttpResponse.json(members.map((member) => member.id))),
    http.get('*/api/v1/users/', ({ request }) => {
      const { searchParams } = new URL(request.url);
      const ids = searchParams.get('ids');
      if (ids !== null) {
        const wanted = new Set(ids.split(','));
        const found = members.slice(0, -1).filter((member) => wanted.has(member.id));
        return HttpResponse.json({ data: found, count: found.length });
      }
      const q = searchParams.get('q');
      const found = q ? everyone.filter((candidate) => candidate.email.includes(q)) : [];
      return HttpResponse.json({ data: found, count: found.length });
    }),
  );
  const requests = recordRequests();
  return { urls: () => urlsOf(requests), members };
}

const renderDialog = () => renderInApp(<TenantMembersDialog tenant={tenant} onClose={() => undefined} />);

describe('TenantMembersDialog', () => {
  beforeEach(() => storeSignedInUser({ id: 'admin', is_superuser: true }));
  afterEach(resetSignedInState);

  it('labels the members with their e-mails read in batches of USER_IDS_MAX, not one request each', async () => {
    const { urls, members } = serveMembers(USER_IDS_MAX + 50);
    renderDialog();
    const selected = await screen.findByRole('list', { name: 'Selected Items' });
    expect(await within(selected).findByText(members[0]!.email)).toBeDefined();
    expect(within(selected).getByText(members[USER_IDS_MAX + 48]!.email)).toBeDefined();
    // The member the API no longer knows shows its id rather than loading for ever.
    expect(within(selected).getByText(members.at(-1)!.id)).toBeDefined();

    const batches = urls().filter((url) => url.includes('ids='));
    expect(batches).toHaveLength(2);
    expect(new URL(batches[0]!, 'http://localhost').searchParams.get('ids')?.split(',')).toHaveLength(USER_IDS_MAX);
    expect(urls().filter((url) => /\/users\/[0-9a-f-]{36}/.test(url))).toEqual([]);
  });

  it('keeps the label of a user moved in from a search after the search changes', async () => {
    const { urls } = serveMembers(1);
    const person = userEvent.setup();
    renderDialog();
    const available = await screen.findByRole('list', { name: 'Available Items' });
    const selected = screen.getByRole('list', { name: 'Selected Items' });
    const search = screen.getByRole('searchbox', { name: 'Find users' });

    await person.type(search, 'member-900');
    await person.click(await within(available).findByRole('checkbox', { name: 'member-900@example.com' }));
    await person.click(screen.getByRole('button', { name: 'move selected right' }));
    expect(within(selected).getByText('member-900@example.com')).toBeDefined();

    await person.clear(search);
    await person.type(search, 'member-901');
    expect(await within(available).findByRole('checkbox', { name: 'member-901@example.com' })).toBeDefined();
    expect(within(selected).getByText('member-900@example.com')).toBeDefined();
    expect(urls().filter((url) => url.includes('ids='))).toHaveLength(1);
  });
});
