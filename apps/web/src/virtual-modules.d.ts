// Built by apps/web/build/common-passwords-plugin.ts.
declare module 'virtual:common-passwords' {
  const passwords: readonly string[];
  export default passwords;
}
