"""Speech in and out on the robot, with no network: the voice wing of ``trees/``.

Recognition (:mod:`.recognizer`, Whisper in :mod:`.whisper_engine`, PocketSphinx in
:mod:`.pocketsphinx_engine`, Moonshine in :mod:`.moonshine_engine`) turns audio
(:mod:`.audio`, from a WAV file or :mod:`.microphone`) into a transcript, with a confidence
when the engine gives one; :mod:`.hearing` decides whether a transcript may reach the tree as
a request or the robot asks to hear it again. The robot's own words (:mod:`.vocabulary`)
become a small language model (:mod:`.language_model`) that constrains PocketSphinx, and the
prompt Whisper leans to. Synthesis (:mod:`.synthesizer`, Flite or espeak-ng) speaks replies
sentence by sentence through :mod:`.speaking`, where a new request interrupts. The command line
(``chat --audio-in``, ``--voice``) and the ROS 2 speech nodes use this wing; it imports
neither.
"""
