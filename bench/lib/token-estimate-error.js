/**
 * How wrong the 4-characters-per-token estimate is on real text: every observation and task of the trajectories
 * counted exactly (o200k, cl100k) and estimated (characters / 4 as most tools do; UTF-8 bytes / 4 as Codex does).
 * Per text: the relative error (estimate - exact) / exact; and at a threshold, how many texts the estimate puts on
 * the other side of it than the exact count.
 */
export function tokenEstimateError(texts, tokenizers, threshold) {
  const estimators = {
    'chars/4': (text) => Math.ceil(text.length / 4),
    'bytes/4': (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / 4),
  };
  const rows = [];
  for (const tokenizer of tokenizers) {
    const exact = texts.map((text) => tokenizer.count(text));
    const exactTotal = exact.reduce((sum, value) => sum + value, 0);
    for (const [name, estimate] of Object.entries(estimators)) {
      const errors = [];
      let estimateTotal = 0;
      let flipped = 0;
      texts.forEach((text, index) => {
        const guess = estimate(text);
        estimateTotal += guess;
        const real = exact[index];
        if (real > 0) errors.push((guess - real) / real);
        if (guess > threshold !== real > threshold) flipped++;
      });
      const magnitudes = errors.map(Math.abs).sort((a, b) => a - b);
      const at = (share) =>
        magnitudes[Math.min(magnitudes.length - 1, Math.floor(share * magnitudes.length))] ?? 0;
      rows.push({
        tokenizer: tokenizer.name,
        estimate: name,
        texts: texts.length,
        exactTokens: exactTotal,
        estimatedTokens: estimateTotal,
        totalError: round(estimateTotal / exactTotal - 1),
        medianAbsError: round(at(0.5)),
        p90AbsError: round(at(0.9)),
        maxAbsError: round(magnitudes.at(-1) ?? 0),
        underestimatedShare: round(errors.filter((error) => error < 0).length / Math.max(1, errors.length)),
        over20PercentShare: round(
          magnitudes.filter((error) => error > 0.2).length / Math.max(1, magnitudes.length),
        ),
        threshold,
        flippedAtThreshold: flipped,
      });
    }
  }
  return rows;
}

function round(value) {
  return Math.round(value * 10_000) / 10_000;
}
