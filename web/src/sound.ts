/** The "your turn" chime and its mute switch (remembered on this device). */
import { useState } from "preact/hooks";

const KEY = "dixit.muted";
let audio: AudioContext | null = null;

export function isMuted(): boolean {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}

export function setMuted(muted: boolean): void {
  try { localStorage.setItem(KEY, muted ? "1" : "0"); } catch { /* not remembered */ }
}

/** Two soft notes, unless muted or the browser has no Web Audio. */
export function chime(): void {
  if (isMuted() || typeof AudioContext === "undefined") return;
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    [659.25, 880].forEach((freq, i) => {
      const osc = audio!.createOscillator();
      const gain = audio!.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.12, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.35);
      osc.connect(gain).connect(audio!.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.4);
    });
  } catch {
    /* no sound: the banner and the title still say it */
  }
}

export function useMuted(): [boolean, (m: boolean) => void] {
  const [muted, set] = useState(isMuted);
  return [muted, (m) => { setMuted(m); set(m); }];
}
