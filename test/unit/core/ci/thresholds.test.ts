// Thresholds read back from the store come in any key order (DynamoDB keeps none for maps; DynamoDB Local and
// dynalite differ): the API answers them in one order, and the CLI prints them in one order whatever it receives.
import { canonicalThresholds } from '../../../../functions/core/ci/decision';
import { fmtThresholds } from '../../../../functions/cli/ci/result';

const shuffled = { max_regressions: 0, max_failures: 1, min_pass_hat_k: 0.5, max_unsafe: 0, min_pass_rate: 0.9 };

describe('threshold order', () => {
  it('the API answers thresholds in one key order, leaving out absent ones', () => {
    expect(Object.keys(canonicalThresholds(shuffled))).toEqual(['min_pass_rate', 'max_unsafe', 'max_failures', 'min_pass_hat_k', 'max_regressions']);
    expect(canonicalThresholds(shuffled)).toEqual(shuffled);
  });

  it('the CLI prints them in that order whatever order it receives', () => {
    expect(fmtThresholds(shuffled as never)).toBe('min_pass_rate 0.9, max_unsafe 0, max_failures 1, min_pass_hat_k 0.5, max_regressions 0');
    expect(fmtThresholds({ zeta: 1, ...shuffled } as never)).toMatch(/max_regressions 0, zeta 1$/);
  });
});
