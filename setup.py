"""Packaging for the Alchemists lab kit: installs the ``labkit`` command."""

from setuptools import find_namespace_packages, setup

setup(
    name="labkit",
    version="0.1.0",
    description="Table companion for Alchemists and The King's Golem: camera, OLED, buttons.",
    python_requires=">=3.11",
    # namespace discovery: the data folders (fonts, locale, faces, scripts) are packages too, so
    # setuptools does not warn at install that they are "absent from the packages configuration"
    packages=find_namespace_packages(include=["engine*", "drivers*", "firmware*"],
                                     exclude=["*.__pycache__"]),
    include_package_data=True,
    package_data={
        "drivers.card_reader": ["faces/*.png", "samples/*.png", "*.json"],
        "firmware": ["fonts/*.ttf", "fonts/*.txt", "locale/*/LC_MESSAGES/*.po",
                     "locale/*/LC_MESSAGES/*.mo", "scripts/*.txt", "*.toml"],
        "engine": ["py.typed"],
    },
    install_requires=[
        "numpy>=1.24",
        "opencv-python-headless>=4.8",
        "pillow>=10",
        "luma.core>=2.5.2",  # create_parser(parser=, autocomplete=) is new in 2.5.2
        "luma.oled>=3.12",
        "gpiozero>=2.0",
        "pyserial>=3.5",
    ],
    extras_require={
        # luma.emulator's pygame windows are for desktops only: the Pi needs none of it.
        "desktop": ["luma.emulator>=1.5"],
        # pyte: a terminal emulator, for the tests that read what the terminal simulator draws;
        # lgpio and rpi-lgpio (RPi.GPIO on bookworm): the real gpio libraries, imported as the service
        # runs them (tests/systemd/test_service_command.py); PyPI has x86-64 wheels of both.
        "test": ["pytest>=8", "hypothesis>=6.100", "mypy>=1.10", "scikit-image>=0.22", "luma.emulator>=1.5",
                 "pyte>=0.8", "lgpio>=0.2.2", "rpi-lgpio>=0.6"],
        "pi": ["rpi-lgpio>=0.6"],
    },
    entry_points={"console_scripts": ["labkit = firmware.cli:main"]},
)
