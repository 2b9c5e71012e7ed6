// The CLI's output boundary: user text cannot start a line a CI runner reads as a workflow command; the CLI's own
// annotations pass as they are.
import { inert, jsonText, oneLine, safeWriter, writeCommands } from '../../../functions/cli/output';

describe('inert', () => {
  it.each([
    ['name\n::warning title=x::y', 'name\n%3A:warning title=x::y'],
    ['name\r::error::y', 'name ::error::y'],
    ['a\r\n  ::add-mask::s', 'a\n  %3A:add-mask::s'],
    ['a\u2028::notice::n', 'a ::notice::n'],
    ['a\u2029##[warning]w', 'a ##[warning]w'],
    ['a\n\u0085##vso[task.complete]', 'a\n %23#vso[task.complete]'],
    ['\v::debug::d\f', ' %3A:debug::d '],
  ])('prints %j with no line starting like a workflow command', (input, printed) => {
    expect(inert(input)).toBe(printed);
  });

  it('keeps the CLI own text as it is: lines, a terminal line rewrite, colons inside a line', () => {
    const text = 'TRACE  STATUS\nrefund: a::b  completed\n\r\x1b[K[1/3 runs done]';
    expect(inert(text)).toBe(text);
  });
});

describe('oneLine, jsonText', () => {
  it('puts a value on one line, and keeps JSON parseable with NEL, LS and PS escaped', () => {
    expect(oneLine('a\r\nb\nc\rd\u2028e\u2029f\u0085g')).toBe('a b c d e f g');
    const value = { name: 'a\u2028::x\u2029y\u0085z' };
    const text = jsonText(value);
    expect(text).not.toMatch(/[\u0085\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('safeWriter, writeCommands', () => {
  it('prints user text through inert and the CLI own ::error annotations as they are', () => {
    // Prepare
    let out = '';
    const stream = safeWriter({ write: (s: string) => (out += s) });

    // Act
    stream.write('x\n::warning::injected\n');
    writeCommands(stream, '::error title=rts%3A a [m] failed::msg%0Ahttps://x\n::warning::not ours\n');

    // Assess
    expect(out).toBe('x\n%3A:warning::injected\n::error title=rts%3A a [m] failed::msg%0Ahttps://x\n%3A:warning::not ours\n');
    expect(safeWriter(stream)).toBe(stream);
  });
});
