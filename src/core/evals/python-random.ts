/**
 * A port of CPython's `random.Random`: the MT19937 generator, seeding from an int or from a
 * str/bytes (version 2: the bytes followed by their SHA-512, read as one big-endian int),
 * `random()`, `getrandbits`, `_randbelow`, `shuffle` and `sample`. Upstream Evals orders samples
 * with `Random(123).shuffle`, so `--max_samples` must pick the same ones. Pure; BigInt for seeds.
 */

import { encodeUtf8 } from '../hash/sha256';

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

const SHA512_K = [
	'428a2f98d728ae22',
	'7137449123ef65cd',
	'b5c0fbcfec4d3b2f',
	'e9b5dba58189dbbc',
	'3956c25bf348b538',
	'59f111f1b605d019',
	'923f82a4af194f9b',
	'ab1c5ed5da6d8118',
	'd807aa98a3030242',
	'12835b0145706fbe',
	'243185be4ee4b28c',
	'550c7dc3d5ffb4e2',
	'72be5d74f27b896f',
	'80deb1fe3b1696b1',
	'9bdc06a725c71235',
	'c19bf174cf692694',
	'e49b69c19ef14ad2',
	'efbe4786384f25e3',
	'0fc19dc68b8cd5b5',
	'240ca1cc77ac9c65',
	'2de92c6f592b0275',
	'4a7484aa6ea6e483',
	'5cb0a9dcbd41fbd4',
	'76f988da831153b5',
	'983e5152ee66dfab',
	'a831c66d2db43210',
	'b00327c898fb213f',
	'bf597fc7beef0ee4',
	'c6e00bf33da88fc2',
	'd5a79147930aa725',
	'06ca6351e003826f',
	'142929670a0e6e70',
	'27b70a8546d22ffc',
	'2e1b21385c26c926',
	'4d2c6dfc5ac42aed',
	'53380d139d95b3df',
	'650a73548baf63de',
	'766a0abb3c77b2a8',
	'81c2c92e47edaee6',
	'92722c851482353b',
	'a2bfe8a14cf10364',
	'a81a664bbc423001',
	'c24b8b70d0f89791',
	'c76c51a30654be30',
	'd192e819d6ef5218',
	'd69906245565a910',
	'f40e35855771202a',
	'106aa07032bbd1b8',
	'19a4c116b8d2d0c8',
	'1e376c085141ab53',
	'2748774cdf8eeb99',
	'34b0bcb5e19b48a8',
	'391c0cb3c5c95a63',
	'4ed8aa4ae3418acb',
	'5b9cca4f7763e373',
	'682e6ff3d6b2b8a3',
	'748f82ee5defb2fc',
	'78a5636f43172f60',
	'84c87814a1f0ab72',
	'8cc702081a6439ec',
	'90befffa23631e28',
	'a4506cebde82bde9',
	'bef9a3f7b2c67915',
	'c67178f2e372532b',
	'ca273eceea26619c',
	'd186b8c721c0c207',
	'eada7dd6cde0eb1e',
	'f57d4f7fee6ed178',
	'06f067aa72176fba',
	'0a637dc5a2c898a6',
	'113f9804bef90dae',
	'1b710b35131c471b',
	'28db77f523047d84',
	'32caab7b40c72493',
	'3c9ebe0a15c9bebc',
	'431d67c49c100d4c',
	'4cc5d4becb3e42b6',
	'597f299cfc657e2a',
	'5fcb6fab3ad6faec',
	'6c44198c4a475817',
].map((hex) => BigInt(`0x${hex}`));

const SHA512_INITIAL = [
	'6a09e667f3bcc908',
	'bb67ae8584caa73b',
	'3c6ef372fe94f82b',
	'a54ff53a5f1d36f1',
	'510e527fade682d1',
	'9b05688c2b3e6c1f',
	'1f83d9abfb41bd6b',
	'5be0cd19137e2179',
].map((hex) => BigInt(`0x${hex}`));

const MASK64 = (1n << 64n) - 1n;

function rotr64(x: bigint, n: bigint): bigint {
	return ((x >> n) | (x << (64n - n))) & MASK64;
}

/** SHA-512 (FIPS 180-4) of bytes; BigInt arithmetic, fine for short seed strings. */
export function sha512(message: Uint8Array): Uint8Array {
	const bitLength = BigInt(message.length) * 8n;
	const paddedLength = Math.ceil((message.length + 17) / 128) * 128;
	const padded = new Uint8Array(paddedLength);
	padded.set(message);
	padded[message.length] = 0x80;
	for (let i = 0; i < 16; i++) {
		padded[paddedLength - 1 - i] = Number((bitLength >> BigInt(8 * i)) & 0xffn);
	}
	const hash = [...SHA512_INITIAL];
	const w: bigint[] = new Array<bigint>(80).fill(0n);
	for (let block = 0; block < paddedLength; block += 128) {
		for (let t = 0; t < 16; t++) {
			let word = 0n;
			for (let b = 0; b < 8; b++) word = (word << 8n) | BigInt(padded[block + t * 8 + b] ?? 0);
			w[t] = word;
		}
		for (let t = 16; t < 80; t++) {
			const w15 = w[t - 15] ?? 0n;
			const w2 = w[t - 2] ?? 0n;
			const s0 = rotr64(w15, 1n) ^ rotr64(w15, 8n) ^ (w15 >> 7n);
			const s1 = rotr64(w2, 19n) ^ rotr64(w2, 61n) ^ (w2 >> 6n);
			w[t] = ((w[t - 16] ?? 0n) + s0 + (w[t - 7] ?? 0n) + s1) & MASK64;
		}
		let [a, b, c, d, e, f, g, h] = hash as [
			bigint,
			bigint,
			bigint,
			bigint,
			bigint,
			bigint,
			bigint,
			bigint,
		];
		for (let t = 0; t < 80; t++) {
			const s1 = rotr64(e, 14n) ^ rotr64(e, 18n) ^ rotr64(e, 41n);
			const ch = (e & f) ^ (~e & MASK64 & g);
			const temp1 = (h + s1 + ch + (SHA512_K[t] ?? 0n) + (w[t] ?? 0n)) & MASK64;
			const s0 = rotr64(a, 28n) ^ rotr64(a, 34n) ^ rotr64(a, 39n);
			const maj = (a & b) ^ (a & c) ^ (b & c);
			const temp2 = (s0 + maj) & MASK64;
			h = g;
			g = f;
			f = e;
			e = (d + temp1) & MASK64;
			d = c;
			c = b;
			b = a;
			a = (temp1 + temp2) & MASK64;
		}
		const next = [a, b, c, d, e, f, g, h];
		for (let i = 0; i < 8; i++) hash[i] = ((hash[i] ?? 0n) + (next[i] ?? 0n)) & MASK64;
	}
	const out = new Uint8Array(64);
	for (let i = 0; i < 8; i++) {
		for (let b = 0; b < 8; b++) {
			out[i * 8 + b] = Number(((hash[i] ?? 0n) >> BigInt(56 - 8 * b)) & 0xffn);
		}
	}
	return out;
}
