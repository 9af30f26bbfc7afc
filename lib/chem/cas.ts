/**
 * CAS Registry Numbers: "NNNNNNN-NN-C", 2–7 digits, 2 digits, one check digit. The check digit is
 * the sum of each other digit times its position counted from the right (1, 2, 3 …), modulo 10
 * (CAS, "CAS Registry Number verification", cas.org).
 */
const CAS_PATTERN = /^(\d{2,7})-(\d{2})-(\d)$/;

export function isValidCas(cas: string): boolean {
  const match = CAS_PATTERN.exec(cas);
  if (!match) return false;
  const digits = (match[1] + match[2]).split('').reverse();
  const sum = digits.reduce((acc, d, i) => acc + Number(d) * (i + 1), 0);
  return sum % 10 === Number(match[3]);
}
