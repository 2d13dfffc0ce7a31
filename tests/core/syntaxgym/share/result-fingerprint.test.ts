import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
	FINGERPRINT_QUANTUM_BITS,
	buildResultFingerprint,
	digestValues,
	listKeyRegions,
	packOutcomeCodes,
	quantiseBits,
	unpackOutcomeCodes,
	type OutcomeCode,
} from '../../../../src/core/syntaxgym/share/result-fingerprint';
import { makeResults, makeSuite } from './fixture-run';

const sha256Prefix = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

describe('quantiseBits', () => {
	it.each([
		[1.23456, 1e-4, 12346],
		[7.123456, 1e-4, 71235],
		[-0.00004, 1e-4, 0],
		[-3.21, 1e-4, -32100],
		[2.5, 0.5, 5],
		[0, 1e-4, 0],
		[null, 1e-4, null],
		[undefined, 1e-4, null],
		[Number.NaN, 1e-4, null],
		[Number.POSITIVE_INFINITY, 1e-4, null],
	])('%s bits at quantum %s → %s', (value, quantum, expected) => {
		expect(quantiseBits(value, quantum)).toBe(expected);
	});

	it('never gives -0', () => {
		expect(Object.is(quantiseBits(-0.00004, 1e-4), -0)).toBe(false);
	});
});

describe('packOutcomeCodes / unpackOutcomeCodes', () => {
	it.each<[OutcomeCode[], string]>([
		[[], ''],
		[['missing'], 'AA'],
		[['false'], 'AQ'],
		[['true'], 'Ag'],
		[['true', 'true', 'false', 'true'], 'mg'],
		[['false', 'false', 'false', 'false', 'true'], 'VQI'],
	])('%j ↔ %j', (codes, packed) => {
		expect(packOutcomeCodes(codes)).toBe(packed);
		expect(unpackOutcomeCodes(packed, codes.length)).toEqual(codes);
	});

	it.each([
		['mg', 5, 'too short'],
		['mgAA', 4, 'too long'],
		['m!', 4, 'not base64url'],
	])('%j for %d codes is refused (%s)', (packed, count) => {
		expect(unpackOutcomeCodes(packed, count)).toBeNull();
	});
});

describe('digestValues', () => {
	it.each([
		[[0, 71235, 35000], '0,71235,35000'],
		[[null, -5], 'n,-5'],
		[[], ''],
	])('%j hashes %j', (values, text) => {
		expect(digestValues(values)).toBe(sha256Prefix(text));
	});
});

describe('listKeyRegions', () => {
	it('lists referenced regions once, in order of first reference, with * expanded', () => {
		expect(listKeyRegions(makeSuite())).toEqual([
			{ conditionName: 'a', regionNumber: 2 },
			{ conditionName: 'b', regionNumber: 2 },
			{ conditionName: 'a', regionNumber: 1 },
			{ conditionName: 'a', regionNumber: 3 },
			{ conditionName: 'b', regionNumber: 1 },
			{ conditionName: 'b', regionNumber: 3 },
		]);
	});
});

describe('buildResultFingerprint', () => {
	it('records outcomes, rounded values, key values and digests in suite order', () => {
		const fingerprint = buildResultFingerprint(makeResults());
		const item1 = [0, 71235, 35000, 0, 98765, 42500];
		const item2 = [0, 110000, 22000, 0, 105000, 27500];
		expect(fingerprint).toEqual({
			metrics: ['sum'],
			itemNumbers: [1, 2],
			predictionCount: 2,
			quantumBits: FINGERPRINT_QUANTUM_BITS,
			// item 1: true, true; item 2: false (11.000049 > 10.5), true
			outcomes: packOutcomeCodes(['true', 'true', 'false', 'true']),
			digests: [sha256Prefix(item1.join(',')), sha256Prefix(item2.join(','))],
			keyRegions: listKeyRegions(makeSuite()),
			keyValues: [
				[71235, 98765, 0, 35000, 0, 42500],
				[110000, 105000, 0, 22000, 0, 27500],
			],
			values: [item1, item2],
		});
	});

	it('lays out several metrics per region and keeps null metric values', () => {
		const results = makeResults(makeSuite(['sum', 'range']));
		const fingerprint = buildResultFingerprint(results);
		expect(fingerprint.metrics).toEqual(['sum', 'range']);
		expect(fingerprint.values?.[0]).toEqual([
			0,
			null,
			71235,
			null,
			35000,
			null,
			0,
			null,
			98765,
			null,
			42500,
			null,
		]);
		expect(unpackOutcomeCodes(fingerprint.outcomes, 8)).toEqual([
			'true',
			'true',
			'true',
			'true',
			'false',
			'false',
			'true',
			'true',
		]);
	});

	it('marks outcomes and values that the run lacks as missing / null', () => {
		const full = makeResults();
		const partial = {
			...full,
			outcomes: full.outcomes.filter((outcome) => outcome.itemNumber === 1),
			regionValues: full.regionValues.filter((value) => value.itemNumber === 1),
		};
		const fingerprint = buildResultFingerprint(partial);
		expect(unpackOutcomeCodes(fingerprint.outcomes, 4)).toEqual([
			'true',
			'true',
			'missing',
			'missing',
		]);
		expect(fingerprint.values?.[1]).toEqual([null, null, null, null, null, null]);
	});

	it('does not change its input', () => {
		const results = makeResults();
		const before = structuredClone(results);
		buildResultFingerprint(results);
		expect(results).toEqual(before);
	});
});
