// Expected values were printed by CPython 3.11 (`random.Random`), the reference implementation.
import { describe, expect, it } from 'vitest';
import {
	PythonRandom,
	sampleRandom,
	seedIntFromText,
	shuffledSampleIndices,
} from '../../../src/core/python/python-random';

describe('PythonRandom(seed).random()', () => {
	it.each<[number | bigint, number]>([
		[0, 0.8444218515250481],
		[1, 0.13436424411240122],
		[42, 0.6394267984578837],
		[123, 0.052363598850944326],
		[2 ** 32, 0.11299430095636409],
		[2n ** 64n + 5n, 0.5105783769365112],
		[-7, 0.32383276483316237],
	])('Random(%s)', (seed, expected) => {
		expect(new PythonRandom(seed).random()).toBe(expected);
	});

	it('str seeds are hashed as upstream per-sample seeds are (UTF-8 + SHA-512)', () => {
		expect(new PythonRandom('coqa.dev.0:20220722').random()).toBe(0.9064756962238082);
		expect(sampleRandom('coqa.dev.0', 20220722).random()).toBe(0.9064756962238082);
		expect(new PythonRandom('é:1').random()).toBe(0.2188061898260767);
		expect(new PythonRandom('').random()).toBe(0.9602256525641875);
		expect(new PythonRandom('abc').random()).toBe(0.7720246314157545);
	});

	it('getrandbits and _randbelow follow the same stream', () => {
		const random = new PythonRandom(2026);
		const values = [random.getrandbits(32), random.getrandbits(32), random.getrandbits(32)];
		for (let i = 0; i < 5; i++) values.push(random.randbelow(7));
		expect(values).toEqual([511616025, 1372175472, 2158288730, 4, 5, 6, 0, 1]);
	});

	it('sample() uses the set algorithm for large populations and the pool one for small', () => {
		const random = new PythonRandom(5);
		expect(random.sample([...Array(30).keys()], 10)).toEqual([
			19, 8, 23, 11, 25, 22, 27, 20, 16, 0,
		]);
		expect(random.sample([...Array(4).keys()], 2)).toEqual([3, 0]);
	});
});

describe('sample order (C13)', () => {
	it.each([
		[1, [0]],
		[2, [1, 0]],
		[5, [3, 1, 4, 2, 0]],
		[10, [8, 7, 5, 9, 2, 3, 6, 1, 4, 0]],
		[20, [7, 17, 3, 4, 14, 12, 11, 9, 5, 10, 15, 6, 0, 16, 19, 18, 13, 2, 8, 1]],
	])('Random(123).shuffle(range(%i))', (count, expected) => {
		expect(shuffledSampleIndices(count)).toEqual(expected);
	});

	it('max_samples keeps the first N after shuffling: 5 samples, max 2 → [3, 1]', () => {
		expect(shuffledSampleIndices(5, 2)).toEqual([3, 1]);
		expect(shuffledSampleIndices(0)).toEqual([]);
	});
});

describe('seedIntFromText', () => {
	it('is int.from_bytes(b + sha512(b).digest(), "big") for the UTF-8 bytes b', () => {
		// Expected: Python's int.from_bytes(b + hashlib.sha512(b).digest(), 'big') for b = b'a:1'.
		expect(seedIntFromText('a:1')).toBe(
			85433070165363453687648380894686863393511337913844006493961886103650793984653060810194088603647405511165707545941274233788886118345768976487919944624876093626982n,
		);
	});
});
