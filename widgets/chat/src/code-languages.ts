/**
 * The languages the chat highlights, each a grammar of highlight.js (a chunk of its own, fetched
 * the first time an answer has a block in it), by the names and aliases answers write after a
 * fence (lower case). A block in any other language, or in none, stays plain and fetches nothing.
 */
export const GRAMMAR_OF = {
  '1c': '1c',
  bash: 'bash',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  'c++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  csharp: 'csharp',
  cs: 'csharp',
  'c#': 'csharp',
  css: 'css',
  diff: 'diff',
  patch: 'diff',
  dockerfile: 'dockerfile',
  docker: 'dockerfile',
  go: 'go',
  golang: 'go',
  graphql: 'graphql',
  gql: 'graphql',
  ini: 'ini',
  toml: 'ini',
  java: 'java',
  javascript: 'javascript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  json: 'json',
  jsonc: 'json',
  kotlin: 'kotlin',
  kt: 'kotlin',
  lua: 'lua',
  makefile: 'makefile',
  make: 'makefile',
  markdown: 'markdown',
  md: 'markdown',
  nginx: 'nginx',
  php: 'php',
  pgsql: 'pgsql',
  postgres: 'pgsql',
  postgresql: 'pgsql',
  powershell: 'powershell',
  ps1: 'powershell',
  python: 'python',
  py: 'python',
  r: 'r',
  ruby: 'ruby',
  rb: 'ruby',
  rust: 'rust',
  rs: 'rust',
  scss: 'scss',
  sql: 'sql',
  swift: 'swift',
  typescript: 'typescript',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  html: 'xml',
  xml: 'xml',
  svg: 'xml',
  vue: 'xml',
  yaml: 'yaml',
  yml: 'yaml',
} as const;

export type Grammar = (typeof GRAMMAR_OF)[keyof typeof GRAMMAR_OF];

/** The grammar of a block's language as the answer wrote it (`ts`, `Python`), or null: the block stays plain. */
export function grammarOf(language: string): Grammar | null {
  const name = language.toLowerCase();
  return Object.hasOwn(GRAMMAR_OF, name) ? GRAMMAR_OF[name as keyof typeof GRAMMAR_OF] : null;
}

/** A fence line: its marks and what follows them. */
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;

/**
 * The grammars of an answer's fenced code blocks (blocks in other languages and without one left
 * out), and whether its last block is still open (no closing fence yet: the answer is being
 * written inside it). A fence closes with the same mark, at least as long, and nothing after it.
 */
export function codeBlocks(text: string): { grammars: Grammar[]; open: boolean } {
  const grammars = new Set<Grammar>();
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const match = FENCE.exec(line);
    if (!match?.[1]) continue;
    const [marks, rest = ''] = [match[1], match[2]];
    if (fence !== null) {
      if (marks[0] === fence[0] && marks.length >= fence.length && rest.trim() === '') fence = null;
      continue;
    }
    // A backtick fence's info has no backticks (else the line is inline code).
    if (marks[0] === '`' && rest.includes('`')) continue;
    fence = marks;
    const grammar = grammarOf(rest.trim().split(/\s/)[0] ?? '');
    if (grammar) grammars.add(grammar);
  }
  return { grammars: [...grammars].sort(), open: fence !== null };
}
