"""Maps the top-level folders onto the `heistbench` import name.

The repository keeps the design card's layout (envs/, agents/, training/, configs/ at the top)
while users import `heistbench.envs`, `heistbench.agents`, `heistbench.training`,
`heistbench.integrations`.
"""

from pathlib import Path

from setuptools import setup

ROOTS = {
    "heistbench": "heistbench",
    "envs": "heistbench.envs",
    "agents": "heistbench.agents",
    "training": "heistbench.training",
    "integrations": "heistbench.integrations",
    "configs": "heistbench.configs",
}

packages: list[str] = []
package_dir: dict[str, str] = {}
for folder, name in ROOTS.items():
    for init in sorted(Path(folder).rglob("__init__.py")):
        rel = init.parent.relative_to(folder).parts
        pkg = ".".join((name, *rel))
        packages.append(pkg)
        package_dir[pkg] = init.parent.as_posix()

setup(
    packages=packages,
    package_dir=package_dir,
    package_data={"": ["*.csv", "*.yaml", "*.txt", "*.json", "static/*.html", "static/*.css",
                        "static/*.js", "*.npz", "*.md"]},
    include_package_data=True,
)
