/**
 * A port of CPython's `random.Random`: the MT19937 generator, seeding from an int or from a
 * str/bytes (version 2: the bytes followed by their SHA-512, read as one big-endian int),
 * `random()`, `getrandbits`, `_randbelow`, `shuffle` and `sample`. Upstream Evals orders samples
 * with `Random(123).shuffle`, so `--max_samples` must pick the same ones. Pure; BigInt for seeds.
 */

import { encodeUtf8, sha512 } from '../hash/sha256';

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

/** CPython `random.Random`, the parts Evals uses. */
export class PythonRandom {
	readonly #state = new Uint32Array(N);
	#index = N + 1;

	/** `Random(seed)`: an int (any size, sign ignored as CPython does) or a str (UTF-8, hashed). */
	constructor(seed: number | bigint | string) {
		this.#seedFromBigInt(typeof seed === 'string' ? seedIntFromText(seed) : toBigInt(seed));
	}

	#initGenrand(seed: number): void {
		const mt = this.#state;
		mt[0] = seed >>> 0;
		for (let i = 1; i < N; i++) {
			const prev = mt[i - 1] ?? 0;
			const x = (prev ^ (prev >>> 30)) >>> 0;
			// 1812433253 * x mod 2^32 without losing precision
			mt[i] = (Math.imul(1812433253, x) + i) >>> 0;
		}
		this.#index = N;
	}

	#initByArray(key: readonly number[]): void {
		const mt = this.#state;
		this.#initGenrand(19650218);
		let i = 1;
		let j = 0;
		const keyLength = key.length;
		for (let k = Math.max(N, keyLength); k > 0; k--) {
			const prev = mt[i - 1] ?? 0;
			const x = (prev ^ (prev >>> 30)) >>> 0;
			mt[i] = (((mt[i] ?? 0) ^ Math.imul(x, 1664525)) + (key[j] ?? 0) + j) >>> 0;
			i++;
			j++;
			if (i >= N) {
				mt[0] = mt[N - 1] ?? 0;
				i = 1;
			}
			if (j >= keyLength) j = 0;
		}
		for (let k = N - 1; k > 0; k--) {
			const prev = mt[i - 1] ?? 0;
			const x = (prev ^ (prev >>> 30)) >>> 0;
			mt[i] = (((mt[i] ?? 0) ^ Math.imul(x, 1566083941)) - i) >>> 0;
			i++;
			if (i >= N) {
				mt[0] = mt[N - 1] ?? 0;
				i = 1;
			}
		}
		mt[0] = 0x80000000;
	}

	#seedFromBigInt(seed: bigint): void {
		let value = seed < 0n ? -seed : seed;
		const key: number[] = [];
		while (value > 0n) {
			key.push(Number(value & 0xffffffffn));
			value >>= 32n;
		}
		if (key.length === 0) key.push(0);
		this.#initByArray(key);
	}

	/** The next 32-bit output (`genrand_uint32`). */
	nextUint32(): number {
		const mt = this.#state;
		if (this.#index >= N) {
			let kk = 0;
			for (; kk < N - M; kk++) {
				const y = ((mt[kk] ?? 0) & UPPER_MASK) | ((mt[kk + 1] ?? 0) & LOWER_MASK);
				mt[kk] = ((mt[kk + M] ?? 0) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)) >>> 0;
			}
			for (; kk < N - 1; kk++) {
				const y = ((mt[kk] ?? 0) & UPPER_MASK) | ((mt[kk + 1] ?? 0) & LOWER_MASK);
				mt[kk] = ((mt[kk + (M - N)] ?? 0) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)) >>> 0;
			}
			const y = ((mt[N - 1] ?? 0) & UPPER_MASK) | ((mt[0] ?? 0) & LOWER_MASK);
			mt[N - 1] = ((mt[M - 1] ?? 0) ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)) >>> 0;
			this.#index = 0;
		}
		let y = mt[this.#index++] ?? 0;
		y ^= y >>> 11;
		y ^= (y << 7) & 0x9d2c5680;
		y ^= (y << 15) & 0xefc60000;
		y ^= y >>> 18;
		return y >>> 0;
	}

	/** `random()`: a float in [0, 1) with 53 random bits. */
	random(): number {
		const a = this.nextUint32() >>> 5;
		const b = this.nextUint32() >>> 6;
		return (a * 67108864 + b) / 9007199254740992;
	}

	/** `getrandbits(k)` for 0 ≤ k ≤ 32 (all Evals needs: list lengths). */
	getrandbits(k: number): number {
		if (k < 0 || k > 32 || !Number.isInteger(k)) {
			throw new RangeError(`getrandbits(${k}): only 0..32 bits are supported`);
		}
		if (k === 0) return 0;
		return this.nextUint32() >>> (32 - k);
	}

	/** `_randbelow_with_getrandbits(n)`: uniform in [0, n), by rejection on `n.bit_length()` bits. */
	randbelow(n: number): number {
		if (n <= 0) return 0;
		const k = 32 - Math.clz32(n);
		let r = this.getrandbits(k);
		while (r >= n) r = this.getrandbits(k);
		return r;
	}

	/** `shuffle(x)` in place: Fisher–Yates from the end, `j = _randbelow(i + 1)`. */
	shuffle<T>(items: T[]): void {
		for (let i = items.length - 1; i > 0; i--) {
			const j = this.randbelow(i + 1);
			const a = items[i] as T;
			items[i] = items[j] as T;
			items[j] = a;
		}
	}

	/** `sample(population, k)`: k distinct picks, CPython's pool or set algorithm by size. */
	sample<T>(population: readonly T[], k: number): T[] {
		const n = population.length;
		if (k < 0 || k > n) throw new RangeError('Sample larger than population or is negative');
		const result: T[] = [];
		let setsize = 21;
		if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
		if (n <= setsize) {
			const pool = [...population];
			for (let i = 0; i < k; i++) {
				const j = this.randbelow(n - i);
				result.push(pool[j] as T);
				pool[j] = pool[n - i - 1] as T;
			}
		} else {
			const selected = new Set<number>();
			for (let i = 0; i < k; i++) {
				let j = this.randbelow(n);
				while (selected.has(j)) j = this.randbelow(n);
				selected.add(j);
				result.push(population[j] as T);
			}
		}
		return result;
	}
}

function toBigInt(seed: number | bigint): bigint {
	if (typeof seed === 'bigint') return seed;
	if (!Number.isSafeInteger(seed)) throw new RangeError(`seed ${seed} is not a safe integer`);
	return BigInt(seed);
}

/** Version-2 seeding of a str: `int.from_bytes(b + sha512(b).digest(), 'big')`, b = UTF-8. */
export function seedIntFromText(text: string): bigint {
	const bytes = encodeUtf8(text);
	const digest = sha512(bytes);
	let value = 0n;
	for (const byte of bytes) value = (value << 8n) | BigInt(byte);
	for (const byte of digest) value = (value << 8n) | BigInt(byte);
	return value;
}

/** Upstream's per-sample rng: `random.Random(f"{sample_id}:{seed}".encode("utf-8"))`. */
export function sampleRandom(sampleId: string, seed: number): PythonRandom {
	return new PythonRandom(`${sampleId}:${seed}`);
}

/** The order upstream evaluates samples in: `Random(123).shuffle(range(n))`, first `maxSamples`. */
export function shuffledSampleIndices(count: number, maxSamples?: number): number[] {
	const indices = Array.from({ length: count }, (_, index) => index);
	new PythonRandom(123).shuffle(indices);
	return maxSamples === undefined ? indices : indices.slice(0, Math.max(0, maxSamples));
}
