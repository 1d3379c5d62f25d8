/** The lessons' slugs in the order Learn lists them (the tests of modules/learn check it in two places). */
export const LESSON_SLUGS_IN_ORDER = [
  'first-extract',
  'first-report',
  'parameters-and-paging',
  'your-own-database',
  'asking-the-agent',
  'sharing-and-scheduling',
];
