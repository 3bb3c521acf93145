//go:build purego || !amd64

package bench

// purego is true where decode runs its portable Go paths only.
const purego = true
