import { createInterface } from 'node:readline/promises';

/** Ctrl-C (SIGINT) handed to `onInterrupt` instead of ending the process, until the undo is called. */
export function processInterrupts(onInterrupt: () => void): () => void {
  process.on('SIGINT', onInterrupt);
  return () => void process.off('SIGINT', onInterrupt);
}

/**
 * Asks `question` on the terminal (the prompt on stderr, so stdout stays the command's output) and
 * resolves with the answer; Ctrl-C while asking answers `y`; `signal` withdraws the question.
 */
export async function askOnTerminal(question: string, signal: AbortSignal): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const interrupted = new Promise<string>((resolve) => terminal.once('SIGINT', () => resolve('y')));
    return await Promise.race([terminal.question(question, { signal }), interrupted]);
  } finally {
    terminal.close();
  }
}
