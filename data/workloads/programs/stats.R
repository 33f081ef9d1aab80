# GNU R (workload "r" of data/workloads, run by littler's r, which embeds R in one process):
# dense linear algebra through BLAS/LAPACK, model fitting, resampling, an interpreted loop,
# string handling and sorting, on data from a fixed-seed generator.
set.seed(20261130)

# Dense linear algebra (double precision): solve, Cholesky, QR, symmetric eigenvalues, SVD.
n <- 160
A <- matrix(rnorm(n * n), n)
S <- crossprod(A) + diag(n)
checks <- numeric(0)
for (k in 1:4) {
  b <- rnorm(n)
  x <- solve(S, b)
  R <- chol(S)
  q <- qr(A)
  e <- eigen(S[1:80, 1:80], symmetric = TRUE, only.values = TRUE)$values
  s <- svd(A[, 1:60], nu = 0, nv = 0)$d
  checks <- c(checks, sum(x), sum(diag(R)), sum(abs(diag(qr.R(q)))), max(e), s[1])
  S <- S + tcrossprod(b) / n
}
cat("linear algebra:", format(sum(checks), digits = 10), "\n")

# Statistics: a linear model with a factor, a logistic regression (IRLS), a t test, quantiles.
m <- 4000
g <- factor(sample(c("north", "south", "east", "west", "central"), m, replace = TRUE))
x1 <- rnorm(m)
x2 <- runif(m)
y <- 1 + 2 * x1 - 3 * x2 + as.integer(g) * 0.4 + rnorm(m)
fit <- lm(y ~ x1 + x2 + g)
print(round(coef(summary(fit)), 4))
yes <- as.integer(y > median(y))
gfit <- glm(yes ~ x1 + x2, family = binomial)
print(round(coef(gfit), 4))
print(t.test(y[g == "north"], y[g == "south"])$statistic)
print(round(sapply(split(y, g), quantile, probs = c(0.1, 0.5, 0.9)), 3))

# Resampling: a bootstrap of the median and of a correlation.
boot <- vapply(1:200, function(i) {
  idx <- sample.int(m, m, replace = TRUE)
  c(median(y[idx]), cor(x1[idx], y[idx]))
}, numeric(2))
cat("bootstrap:", round(apply(boot, 1, sd), 5), "\n")

# An interpreted scalar loop (byte-compiled by R's JIT): Collatz chain lengths.
collatz <- function(limit) {
  best <- 0L
  arg <- 0L
  for (i in 1:limit) {
    v <- i
    steps <- 0L
    while (v != 1) {
      v <- if (v %% 2 == 0) v / 2 else 3 * v + 1
      steps <- steps + 1L
    }
    if (steps > best) {
      best <- steps
      arg <- i
    }
  }
  c(arg, best)
}
cat("collatz:", collatz(6000), "\n")

# Strings: build pseudo-words, count them, sort them, regular expressions.
syll <- c("ka", "to", "ri", "ne", "sa", "mo", "lu", "pe", "di", "go", "vy", "ch", "st", "an")
words <- vapply(1:12000, function(i) paste(sample(syll, 1 + i %% 3 + sample.int(2, 1)), collapse = ""), "")
counts <- sort(table(words), decreasing = TRUE)
print(head(counts, 5))
hits <- grepl("^(ka|to).*(an|ne)$", words)
cat("pattern hits:", sum(hits), " upper:", substr(paste(toupper(head(sort(unique(words)), 3)), collapse = " "), 1, 60), "\n")
key <- sprintf("%s-%05d", words, seq_along(words))
o <- order(nchar(key), key)
cat("sorted:", key[o[1:3]], "\n")

# Signal and smoothing: an FFT, a convolution, a kernel density estimate, a spline.
sig <- sin(seq(0, 200 * pi, length.out = 2^15)) + rnorm(2^15, sd = 0.3)
spec <- Mod(fft(sig))
cat("fft peak bin:", which.max(spec[2:(2^14)]), "\n")
dens <- density(y, n = 1024)
cat("density mode:", round(dens$x[which.max(dens$y)], 4), "\n")
sp <- smooth.spline(x1[1:2000], y[1:2000])
cat("spline df:", round(sp$df, 3), "\n")

# Optimisation: Nelder-Mead and BFGS on a Rosenbrock function.
rosen <- function(p) sum(100 * (p[-1] - p[-length(p)]^2)^2 + (1 - p[-length(p)])^2)
o1 <- optim(rep(-1, 4), rosen, control = list(maxit = 4000))
o2 <- optim(rep(-1, 6), rosen, method = "BFGS")
cat("optim:", round(o1$value, 6), round(o2$value, 6), "\n")
