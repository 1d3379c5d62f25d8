// The package ships its ranked list as a module of its own, without types for that path.
declare module '@zxcvbn-ts/language-common/dist/passwords.json.mjs' {
  const passwords: string[];
  export default passwords;
}
