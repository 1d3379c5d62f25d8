// ua-parser-js 1.x (MIT) ships no types; this declares the one call the server makes (lib/user-agent.ts).
declare module 'ua-parser-js' {
  interface UAParserPart {
    name?: string;
    version?: string;
    major?: string;
  }
  interface UAParserResult {
    browser: UAParserPart;
    os: UAParserPart;
    device: { vendor?: string; model?: string; type?: string };
  }
  export class UAParser {
    constructor(userAgent?: string);
    getResult(): UAParserResult;
  }
}
