// Cached llm_judge verdicts (access pattern 22 of keys.ts): one item per project and verdict key, with the table's TTL.
import type { JudgeCacheRepo } from '../../core/ports';
import { keys } from './keys';
import { getItem, putIf } from './table';

type Verdict = { score: number; pass: boolean; reason: string };

/** The JudgeCacheRepo port over the single table. */
export class DynamoJudgeCacheRepo implements JudgeCacheRepo {
  async get(projectId: string, key: string, now: Date): Promise<Verdict | null> {
    const item = await getItem(keys.judgeVerdict(projectId, key));
    // DynamoDB deletes expired items lazily (up to days later): an expired verdict is a miss.
    if (!item || Number(item.expires_at) <= Math.floor(now.getTime() / 1000)) return null;
    return { score: Number(item.score), pass: item.pass === true, reason: String(item.reason ?? '') };
  }

  async put(projectId: string, key: string, verdict: Verdict, expiresAt: number): Promise<void> {
    // Concurrent attempts judging the same text write the same verdict key; the last write wins, any of them is valid.
    await putIf({ Item: { ...keys.judgeVerdict(projectId, key), entity: 'judge_verdict', ...verdict, expires_at: expiresAt } });
  }
}
