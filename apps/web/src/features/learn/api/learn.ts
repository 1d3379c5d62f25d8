import type { Lesson, LessonCheckResult, Lessons } from '@dataplatform/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { myTenantsQueryOptions } from '../../../lib/my-tenants.js';
import { prefetchForSignedIn } from '../../../lib/query-client.js';
import { getSelectedTenantId } from '../../../lib/session.js';

/** Per tenant: the progress shown is the caller's in the tenant the switcher chose. */
export const learnKeys = {
  all: ['learn'] as const,
  lessons: (tenantId: string) => ['learn', tenantId, 'lessons'] as const,
  lesson: (tenantId: string, slug: string) => ['learn', tenantId, 'lesson', slug] as const,
};

/** `GET /learn/lessons`: the lessons there are, each with the caller's progress in the tenant. */
export function lessonsQueryOptions(tenantId: string) {
  return queryOptions({
    queryKey: learnKeys.lessons(tenantId),
    queryFn: ({ signal }) => apiRequest<Lessons>({ path: '/learn/lessons', signal }),
    // The page says "The lessons could not be loaded." itself.
    meta: { errorToast: false },
  });
}

/** `GET /learn/lessons/{slug}`: one lesson with its steps, as HTML the server rendered. */
export function lessonQueryOptions(tenantId: string, slug: string) {
  return queryOptions({
    queryKey: learnKeys.lesson(tenantId, slug),
    queryFn: ({ signal }) => apiRequest<Lesson>({ path: `/learn/lessons/${encodeURIComponent(slug)}`, signal }),
    meta: { errorToast: false },
  });
}

/** `POST /learn/lessons/{slug}/check`: each step done or what is missing; the lists' progress follows. */
export function useCheckLesson(tenantId: string, slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<LessonCheckResult>({ method: 'POST', path: `/learn/lessons/${encodeURIComponent(slug)}/check` }),
    meta: { errorText: 'Your work could not be checked' },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['learn', tenantId] });
    },
  });
}

/** `DELETE /learn/progress/{slug}`: forgets the caller's progress in the lesson (the work stays). */
export function useResetLesson(tenantId: string, slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<undefined>({ method: 'DELETE', path: `/learn/progress/${encodeURIComponent(slug)}` }),
    meta: { errorText: 'Your progress could not be reset' },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['learn', tenantId] });
    },
  });
}

/**
 * The route loader's start: the caller's tenants and what the page opened shows (the list, or one
 * lesson: `slug`), fetched while the page's code downloads.
 */
export function prefetchLearnPage(slug?: string): null {
  const tenantId = getSelectedTenantId();
  return prefetchForSignedIn((client) => [
    client.prefetchQuery(myTenantsQueryOptions()),
    slug
      ? client.prefetchQuery(lessonQueryOptions(tenantId, slug))
      : client.prefetchQuery(lessonsQueryOptions(tenantId)),
  ]);
}
