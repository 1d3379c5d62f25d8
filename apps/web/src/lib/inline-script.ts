/** A script without its comments and indentation, as it goes inline into a page. */
export function inlineScript(script: string): string {
  return script
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('//'))
    .map((line) => line.trim())
    .join('\n');
}
