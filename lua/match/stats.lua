-- The statistics of a tournament: Student's t and Wilson intervals, Elo
-- from a score, the mean with its interval, and the SPRT's log-likelihood
-- ratio and bounds (see lua/match/tournament.lua for what each reports).

local stats = {}

local Z95 = 1.959963984540054

local T95 = { 12.706204736174698, 4.302652729749464, 3.182446305284263, 2.776445105197793, 2.570581835636314,
  2.446911851144969, 2.364624251592785, 2.306004135204166, 2.262157162798205, 2.228138851986274 }

--- The two-sided 95% quantile of Student's t with df degrees of freedom:
-- a table up to 10, then the Cornish-Fisher expansion (error < 1e-5).
function stats.t95(df)
  assert(df >= 1, "df must be at least 1")
  if T95[df] then return T95[df] end
  if df > 1e6 then return Z95 end
  local z, v = Z95, df
  local z3, z5, z7, z9 = z ^ 3, z ^ 5, z ^ 7, z ^ 9
  return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v ^ 2)
    + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v ^ 3)
    + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v ^ 4)
end

--- Wilson score interval for k successes in n trials (z = 1.96 by
-- default): lo, hi. n = 0 gives 0, 1.
function stats.wilson(k, n, z)
  z = z or Z95
  if n <= 0 then return 0, 1 end
  local p = k / n
  local z2 = z * z
  local den = 1 + z2 / n
  local centre = (p + z2 / (2 * n)) / den
  local half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
  return math.max(0, centre - half), math.min(1, centre + half)
end

--- Elo difference from a score fraction (logistic model); +-inf at 1, 0.
function stats.elo(score)
  if score >= 1 then return math.huge end
  if score <= 0 then return -math.huge end
  return -400 * math.log(1 / score - 1, 10)
end

--- The expected score of a player rated `elo` above the opponent.
function stats.score(elo)
  return 1 / (1 + 10 ^ (-elo / 400))
end

--- Mean of a list with a 95% t interval: mean, lo, hi, sd (sample).
-- One value: the interval is the value itself.
function stats.mean_ci(xs)
  local n = #xs
  if n == 0 then return 0 / 0, 0 / 0, 0 / 0, 0 / 0 end
  local s = 0
  for _, x in ipairs(xs) do s = s + x end
  local m = s / n
  if n == 1 then return m, m, m, 0 end
  local ss = 0
  for _, x in ipairs(xs) do ss = ss + (x - m) ^ 2 end
  local sd = math.sqrt(ss / (n - 1))
  local h = stats.t95(n - 1) * sd / math.sqrt(n)
  return m, m - h, m + h, sd
end

--- Log-likelihood ratio of the SPRT in its Gaussian approximation: n
-- samples of mean `mean` and variance `var` (of the samples), H0 mean s0
-- against H1 mean s1.
function stats.sprt_llr(n, mean, var, s0, s1)
  if n == 0 then return 0 end
  return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
end

--- The SPRT stop bounds for error rates alpha and beta: lower, upper.
function stats.sprt_bounds(alpha, beta)
  beta = beta or alpha
  return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
end

return stats
