// Built by apps/web/build/common-passwords-plugin.ts.
declare module 'virtual:common-passwords' {
  const passwords: readonly string[];
  export default passwords;
}

// Built by apps/web/build/showcase-reports-plugin.ts.
declare module 'virtual:showcase-reports' {
  import type { ReportParamPublic, SharedBlock } from '@dataplatform/contract';
  /** Each built-in report's parameters and its blocks up to its first chart, by slug. */
  const screens: Readonly<Record<string, { params: ReportParamPublic[]; blocks: SharedBlock[] }>>;
  export default screens;
}
