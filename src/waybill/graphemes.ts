/** Text as a reader sees its characters: an emoji sequence, a letter and its accents, each one. */

// Made on first use: the runtime's segmentation data costs about 3 MB of memory, held from then on.
let segmenter: Intl.Segmenter | undefined;

/** The graphemes of `text`, in order. */
export function* graphemes(text: string): Generator<string> {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(text)) yield segment;
}
