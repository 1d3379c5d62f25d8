import { useState } from 'react';
import { AddToReportDialog, type Adding } from './add-to-report.js';
import { GuidedBuilder } from './guided-builder.js';

/** The builder with its own "Add to report". */
export default function BuildView({ canWrite }: { canWrite: boolean }) {
  const [adding, setAdding] = useState<Adding>(undefined);
  return (
    <>
      <GuidedBuilder
        onAdd={
          canWrite
            ? (compiled, title) =>
                setAdding({ report: compiled.report, params: compiled.params, source: compiled.source, title })
            : undefined
        }
      />
      <AddToReportDialog open={adding !== undefined} add={adding} onClose={() => setAdding(undefined)} />
    </>
  );
}
