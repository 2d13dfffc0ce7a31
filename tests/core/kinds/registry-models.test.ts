// Every model a run used, whatever its kind: the suite's model, the Evals policy models and
// grader, the LTM agent and judge.
import { describe, expect, it } from 'vitest';
import type { EvalsRunRecord, LtmRunRecord } from '../../../src/core/kinds/run-record';
import {
	RUN_KIND_REGISTRY,
	type RegisteredRunRecord as RunRecord,
} from '../../../src/core/kinds/registered-kinds';

const runModels = (record: RunRecord) => RUN_KIND_REGISTRY.models(record);
import type { TextModelSpec } from '../../../src/core/model/model-spec';

const BUNDLED: TextModelSpec = {
	source: 'bundled',
	id: 'gpt2-en-small',
	dtype: 'q8',
	backend: 'wasm',
};
const ENDPOINT: TextModelSpec = {
	source: 'openai',
	model: 'm',
	baseUrl: 'http://127.0.0.1:8000/v1',
};
const REPLAY: TextModelSpec = { source: 'replay', file: 'a.replay.jsonl', sha256: 'b'.repeat(64) };

/** Only the fields runModels reads; the rest of a record does not matter here. */
function run(
	fields: Partial<EvalsRunRecord> | Partial<LtmRunRecord> | { kind: 'suite'; model: TextModelSpec },
): RunRecord {
	return fields as RunRecord;
}

describe('the registry: every model a run used', () => {
	it.each<[string, RunRecord, TextModelSpec[]]>([
		['a suite run', run({ kind: 'suite', model: BUNDLED }), [BUNDLED]],
		[
			'an Evals run without grader',
			run({ kind: 'evals', models: { policy: [ENDPOINT] } }),
			[ENDPOINT],
		],
		[
			'an Evals run with two policies and a grader',
			run({ kind: 'evals', models: { policy: [ENDPOINT, REPLAY], grader: BUNDLED } }),
			[ENDPOINT, REPLAY, BUNDLED],
		],
		['an LTM run without judge', run({ kind: 'ltm', models: { agent: REPLAY } }), [REPLAY]],
		[
			'an LTM run with a judge',
			run({ kind: 'ltm', models: { agent: REPLAY, judge: ENDPOINT } }),
			[REPLAY, ENDPOINT],
		],
	])('%s', (_name, record, expected) => {
		expect(runModels(record)).toEqual(expected);
	});
});
