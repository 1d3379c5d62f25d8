import type { LearnFeature } from '@dataplatform/contract';

/**
 * Which of the features a lesson may need are in this product now: the one place to change when
 * one lands. A lesson or a step that needs a feature listed false here is hidden (404 for the lesson,
 * left out of the lesson for a step) rather than broken.
 */
export function learnFeatures(options: {
  /** An agent model is configured (AGENT_BASE_URL): only its answers can be added to a report. */
  agentModel: boolean;
}): ReadonlySet<LearnFeature> {
  const available: Record<LearnFeature, boolean> = {
    extracts: true,
    reports: true,
    tenant_databases: true,
    sharing: true,
    agent: options.agentModel,
    // Scheduled reports (issue 59): the schedule_exists check reads report_schedules.
    schedules: true,
  };
  return new Set(Object.entries(available).flatMap(([feature, on]) => (on ? [feature as LearnFeature] : [])));
}
