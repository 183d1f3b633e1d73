"""Self-play training, evaluation, tournaments and benchmarks on the batch kernels.

- `config`: the typed run configuration (`TrainConfig`) loaded from configs/*.yaml
- `opponents`: `OpponentPool`, `FixedOpponents` and `SeatedGames`, the in-env opponents that
  every learner env (the self-play VecEnv, the single-seat envs of `heistbench.integrations`)
  shares
- `vec_env`: `SelfPlayVecEnv`, the SB3 VecEnv with an in-env `OpponentPool`
- `train`: the MaskablePPO self-play loop and the run directory
- `evaluate`: batched matches, seat rotation, Wilson intervals, the evaluation table
- `tournament`: round robins rated with OpenSkill
- `human`: terminal play against bots
- `bench`: throughput benchmarks

Submodules are imported on demand, so `import heistbench.training` stays light.
"""
