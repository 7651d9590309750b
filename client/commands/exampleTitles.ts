// What the Open Example picker says of each bundled program (no VS Code API here, so tested on its own).

/** The first `// litmus: …` line of a litmus test: its title in the picker. */
export function litmusTitle(text: string): string | undefined {
  return /^\/\/ litmus: (.*)$/m.exec(text)?.[1]?.trim();
}

/** A program's first line, `// name.cu - what it shows.`: what it shows, for the picker. */
export function programTitle(text: string): string | undefined {
  return /^\/\/ \S+\.cu\s+[-—]\s+(.*?)\.?\s*$/m.exec(text.split('\n', 1)[0])?.[1];
}
