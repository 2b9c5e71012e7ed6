// Cached answers of the models rts calls itself: llm_judge verdicts (access pattern 22 of keys.ts) and simulated-user
// messages (28); one item per project and key, with the table's TTL.
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

  async getMessage(projectId: string, key: string, now: Date): Promise<string | null> {
    const item = await getItem(keys.simulatedUserMessage(projectId, key));
    if (!item || Number(item.expires_at) <= Math.floor(now.getTime() / 1000) || typeof item.message !== 'string') return null;
    return item.message;
  }

  async putMessage(projectId: string, key: string, message: string, expiresAt: number): Promise<void> {
    // Same conversation, same key: concurrent attempts write the same message under it (the model answers at temperature 0).
    await putIf({ Item: { ...keys.simulatedUserMessage(projectId, key), entity: 'simulated_user_message', message, expires_at: expiresAt } });
  }
}
