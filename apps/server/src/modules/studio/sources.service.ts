import { STUDIO_SOURCE_KINDS } from '@dataplatform/contract';
import { AppError } from '../../lib/errors.js';
import type { SourceId, SourceSummary, StudioEngine, StudioScope, TableSummary } from './engine/engine.js';

const isSourceId = (id: string): id is SourceId => (STUDIO_SOURCE_KINDS as readonly string[]).includes(id);

/**
 * Studio's sources (STUDIO-SOURCE-*): which ones the scope may use, and their tables with columns
 * for the editor's source browser. A source the scope has not is a 404 like one that does not exist.
 */
export function createSourcesService(deps: { engine: Pick<StudioEngine, 'listSources' | 'listTables'> }) {
  const { engine } = deps;
  return {
    list(scope: StudioScope): Promise<SourceSummary[]> {
      return engine.listSources(scope);
    },

    async tables(scope: StudioScope, sourceId: string): Promise<TableSummary[]> {
      const available = await engine.listSources(scope);
      if (!isSourceId(sourceId) || !available.some((source) => source.id === sourceId)) {
        throw new AppError('not_found', 'No such source');
      }
      return engine.listTables(scope, sourceId);
    },
  };
}

export type SourcesService = ReturnType<typeof createSourcesService>;
